import { Form, Link } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { isGenuineUnsubscribeToken, UNSUBSCRIBE_MESSAGES, unsubscribeByLink } from "#server/privacy/unsubscribe.ts";
import { runLoader, runAction } from "#server/web/respond.ts";
import type { Route } from "./+types/unsubscribe";

export const meta = () => [...pageMeta("Unsubscribe", "Stop promotional e-mail from Digs & Gigs."), { name: "robots", content: "noindex" }];

/**
 * The link in every promotional e-mail. Opening it only checks the token: link scanners
 * fetch addresses in e-mail, so the change itself needs the button (or the mail client's
 * RFC 8058 one-click POST to the same address). No sign-in is needed either way.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const token = new URL(request.url).searchParams.get("token") ?? "";
    const valid = await isGenuineUnsubscribeToken(context, token);
    return { token, invalid: valid ? null : UNSUBSCRIBE_MESSAGES.invalid };
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  return runAction(context, async () => {
    const form = await request.formData();
    const token = new URL(request.url).searchParams.get("token") ?? form.get("token");
    await unsubscribeByLink(context, token);
    return { success: UNSUBSCRIBE_MESSAGES.done };
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { token, invalid } = loaderData;
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <PageHeader title="Unsubscribe" subtitle="Promotional e-mail from Digs & Gigs" />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          {actionData && "error" in actionData ? (
            <p role="alert">{actionData.error}</p>
          ) : actionData ? (
            <p role="status">{actionData.success}</p>
          ) : invalid === null ? (
            <Form method="post" className="grid gap-4">
              <input type="hidden" name="token" value={token} />
              <p>Stop news, tips and offers. E-mail about your account and purchases still arrives.</p>
              <Button type="submit">Unsubscribe</Button>
            </Form>
          ) : (
            <p role="alert">{invalid}</p>
          )}
          <p className="text-sm text-muted-foreground">
            Signed in? Change this any time on your <Link to="/account" className="underline">account page</Link>.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
