import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { openUnsubscribeLink } from "#server/privacy/open-unsubscribe-link.ts";
import { unsubscribeByLink } from "#server/privacy/unsubscribe.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/unsubscribe";

export const meta = () => [...pageMeta("Unsubscribe", "Stop promotional e-mail, lead alerts or e-mail about new messages from Digs & Gigs."), { name: "robots", content: "noindex" }];

/** What each list's page says. */
const LISTS = {
  promotional: {
    subtitle: "Promotional e-mail from Digs & Gigs",
    explain: "Stop news, tips and offers. E-mail about your account and purchases still arrives.",
  },
  "lead-alerts": {
    subtitle: "Lead alerts from Digs & Gigs",
    explain: "Turn lead alerts off: no more e-mails about new gigs. Your other e-mail settings stay as they are.",
  },
  messages: {
    subtitle: "E-mail about new messages from Digs & Gigs",
    explain: "Turn 'E-mail me about new messages' off. New messages still show in Messages and the bell; your other e-mail settings stay as they are.",
  },
} as const;

/**
 * The link in every promotional e-mail (with `list=lead-alerts`, every lead alert; with
 * `list=messages`, every e-mail about new messages). Opening it only checks the token: link scanners
 * fetch addresses in e-mail, so the change itself needs the button (or the mail client's
 * RFC 8058 one-click POST to the same address). No sign-in is needed either way.
 */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, openUnsubscribeLink);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, unsubscribeByLink, (success) => ({ success }));
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { token, list, invalid } = loaderData;
  const texts = LISTS[list];
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <PageHeader title="Unsubscribe" subtitle={texts.subtitle} />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          {actionData && "error" in actionData ? (
            <p role="alert">{actionData.error}</p>
          ) : actionData ? (
            <p role="status">{actionData.success}</p>
          ) : invalid === null ? (
            <Form method="post" className="grid gap-4">
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="list" value={list} />
              <p>{texts.explain}</p>
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
