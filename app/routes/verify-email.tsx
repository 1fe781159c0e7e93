import { Form, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { confirmEmailForm } from "#server/sign-in/confirm-email.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { serveAction } from "#server/web/operations.ts";
import type { Route } from "./+types/verify-email";

export const meta = () => [...pageMeta("Confirm Your E-mail", "Confirm your e-mail address for Digs & Gigs."), { name: "robots", content: "noindex" }];

/**
 * The link in the confirmation e-mail. Opening it changes nothing: mail scanners open links
 * in e-mail, so the confirmation itself needs the button (server/auth/email-verification.ts).
 */
export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "" };
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, confirmEmailForm, ({ landing, message, setCookies }) =>
    redirectWithFlash(args.context.services.config, landing, "success", message, setCookies),
  );
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <PageHeader title="Confirm Your E-mail" />
      <Card>
        <CardContent className="pt-6">
          <Form method="post" className="grid gap-4">
            <input type="hidden" name="token" value={loaderData.token} />
            <p>Confirm that this e-mail address is yours. Gigs you post are published once it is confirmed.</p>
            <Button type="submit" disabled={busy}>
              {busy ? "Confirming..." : "Confirm my e-mail"}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
