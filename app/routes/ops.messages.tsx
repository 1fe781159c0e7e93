import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { MessageAttachments } from "#app/features/messages/attachments.tsx";
import { ReportsAndDecision } from "#app/features/ops/reported-item.tsx";
import { cn } from "#app/lib/cn.ts";
import { moderateMessage } from "#server/ops/moderate-message.ts";
import { reportedMessagesPage } from "#server/ops/view-reported-messages.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.messages";

/** Messages: those with open reports, the longest-waiting first, each with the thread around it and every report's reason. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, reportedMessagesPage);
}

/** Hide (shown to both parties as removed) or Keep a reported message; both close its reports. */
export async function action(args: Route.ActionArgs) {
  return serveAction(args, moderateMessage);
}

export default function OpsMessages({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <div>
      <PageHeader title="Messages" subtitle="Messages people reported, the longest-waiting first, with the thread around each. Hide shows it to both as removed; Keep leaves it." />
      {page.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No reported messages.</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Reported messages">
          {page.items.map((item) => (
            <li key={item.id} className="grid gap-2 p-3 text-sm">
              <ol className="grid gap-1" aria-label="The thread around the reported message">
                {item.context.map((message) => (
                  <li key={message.id} className={cn("rounded-md p-2", message.reported ? "border-2 border-destructive" : "bg-muted/50")}>
                    <p className="text-xs text-muted-foreground">
                      {`${message.sender}, ${message.createdAtText}`}
                      {message.reported ? <span className="font-semibold text-destructive"> (reported)</span> : null}
                    </p>
                    <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.text}</p>
                    {message.reported ? <MessageAttachments threadId={item.threadId} attachments={item.attachments} mine={false} /> : null}
                  </li>
                ))}
              </ol>
              <ReportsAndDecision reasons={item.reasons} firstReportedText={item.firstReportedText} subject={{ messageId: item.id }} />
            </li>
          ))}
        </ul>
      )}
      <NextPageLink nextCursor={page.nextCursor} label="More reported messages" />
    </div>
  );
}
