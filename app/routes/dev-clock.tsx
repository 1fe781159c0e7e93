import { Form, useActionData, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { devClockPage, moveGuaranteeClock } from "#server/leads/dev-clock.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/dev-clock";

/** Local mode only (server/leads/dev-clock.ts): a purchase's reply-guarantee times moved back, then its check. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, devClockPage);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, moveGuaranteeClock);
}

export const meta = () => pageMeta("Clock", "Move a purchase's reply-guarantee times back (local mode only).");

export default function DevClock({ loaderData }: Route.ComponentProps) {
  const result = useActionData<{ success?: string; error?: string }>();
  useActionToast(result);
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <PageHeader title="Clock" subtitle={`Moves a purchase's reply-guarantee times back ${loaderData.hours} hours and runs its check (local mode only).`} />
      <Form method="post" className="grid max-w-md gap-3">
        <Label htmlFor="clock-id">Purchase or thread id</Label>
        <Input id="clock-id" name="id" required autoComplete="off" />
        <Button type="submit" disabled={busy}>
          Move back {loaderData.hours} hours
        </Button>
      </Form>
      {result?.success ? (
        <p role="status" className="mt-4 text-sm">
          {result.success}
        </p>
      ) : null}
    </>
  );
}
