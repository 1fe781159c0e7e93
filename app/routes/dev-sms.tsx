import { PageHeader } from "#app/components/page-header.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { devSmsPage } from "#server/phones/recent-texts.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/dev-sms";

/** Local mode only (server/phones/recent-texts.ts): the text messages the app kept, newest first. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, devSmsPage);
}

export const meta = () => pageMeta("Text messages", "Text messages recorded by the app in local mode.");

export default function DevSms({ loaderData }: Route.ComponentProps) {
  const { texts, shown, to } = loaderData;
  return (
    <>
      <PageHeader title="Text messages" subtitle={`The newest ${shown} text messages the app recorded${to ? ` to ${to}` : ""} (local mode only).`} />
      {texts.length === 0 ? (
        <p className="text-muted-foreground">No text message yet.</p>
      ) : (
        <ul className="grid gap-4">
          {texts.map((text) => (
            <li key={text.id}>
              <Card>
                <CardHeader>
                  <CardDescription>
                    To <span className="font-medium text-foreground">{text.to}</span> ·{" "}
                    <time dateTime={text.createdAt.toISOString()}>{`${text.createdAt.toISOString().slice(0, 19).replace("T", " ")} UTC`}</time>
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <p className="break-words whitespace-pre-wrap">{text.body}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
