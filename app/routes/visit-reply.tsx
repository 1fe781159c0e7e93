import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { VISIT_LINK_TEXTS as T, VISIT_TEXTS } from "#core/visits.ts";
import { answerVisitLink } from "#server/conversations/visits/answer-visit-link.ts";
import { openVisitLink } from "#server/conversations/visits/open-visit-link.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/visit-reply";

export const meta = () => [...pageMeta(T.title, "Confirm your visit, or tell the digger you need another time."), { name: "robots", content: "noindex" }];

/**
 * The client's Confirm / Need to change link of a visit's 24-hour reminder (issue 50), usable
 * without signing in. Opening it only checks the token and shows the visit's time in the
 * client's zone (mail scanners follow links); the answer is the button's POST
 * (server/conversations/visits/answer-visit-link.ts).
 */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, openVisitLink);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, answerVisitLink, (success) => ({ success }));
}

export default function VisitReply({ loaderData, actionData }: Route.ComponentProps) {
  const { token, answer, visit, refused } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <PageHeader title={T.title} />
      <Card>
        <CardContent className="grid gap-4">
          {actionData && "error" in actionData ? (
            <p role="alert">{actionData.error}</p>
          ) : actionData ? (
            <p role="status" className="font-medium">
              {actionData.success}
            </p>
          ) : visit ? (
            <Form method="post" className="grid gap-4">
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="answer" value={answer} />
              <p className="text-muted-foreground">{T.about(visit.gigTitle, visit.handle)}</p>
              <p className="text-lg font-semibold">{visit.window}</p>
              {answer === "confirm" && visit.confirmed ? <p>{T.alreadyConfirmed}</p> : null}
              <p>{answer === "confirm" ? T.askConfirm : T.askChange(visit.handle)}</p>
              <Button type="submit" disabled={busy} variant={answer === "confirm" ? "default" : "outline"} className="w-full sm:w-auto sm:justify-self-start">
                {busy ? T.busy : answer === "confirm" ? VISIT_TEXTS.confirm : VISIT_TEXTS.needToChange}
              </Button>
            </Form>
          ) : (
            <p role="alert">{refused}</p>
          )}
          <p className="text-sm text-muted-foreground">
            {T.signedInHint}{" "}
            <Link to="/messages" className="underline">
              {T.openMessages}
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
