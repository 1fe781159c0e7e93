import { data, Form, Link } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { UNSUBSCRIBE_MESSAGES, unsubscribeWithToken, userOfUnsubscribeToken } from "#server/privacy/email-preferences.ts";
import type { Route } from "./+types/unsubscribe";

export const meta = () => [...pageMeta("Unsubscribe", "Stop promotional e-mail from Digs & Gigs."), { name: "robots", content: "noindex" }];

/**
 * The link in every promotional e-mail. Opening it only checks the token: link scanners
 * fetch addresses in e-mail, so the change itself needs the button (or the mail client's
 * RFC 8058 one-click POST to the same address). No sign-in is needed either way.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = context.services;
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = (await userOfUnsubscribeToken(db, config.authSecret, token)) !== null;
  return { token, invalid: valid ? null : UNSUBSCRIBE_MESSAGES.invalid };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config } = context.services;
  const form = await request.formData();
  const token = new URL(request.url).searchParams.get("token") ?? form.get("token");
  const done = await unsubscribeWithToken(db, config.authSecret, token);
  if (done) context.logger.info("unsubscribed from promotional e-mail by link");
  return data({ done, message: done ? UNSUBSCRIBE_MESSAGES.done : UNSUBSCRIBE_MESSAGES.invalid }, { status: done ? 200 : 400 });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { token, invalid } = loaderData;
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <PageHeader title="Unsubscribe" subtitle="Promotional e-mail from Digs & Gigs" />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          {actionData ? (
            <p role={actionData.done ? "status" : "alert"}>{actionData.message}</p>
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
