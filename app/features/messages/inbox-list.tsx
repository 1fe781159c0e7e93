import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { cn } from "#app/lib/cn.ts";
import { formatDateTime } from "#core/dates.ts";
import { MESSAGE_TEXTS, type InboxThread } from "#core/messages.ts";

/** The inbox: each thread with the other party, the gig, the last message's first line, its time and 'Unread'. */
export function InboxList({ threads }: { threads: InboxThread[] }) {
  return (
    <ul className="divide-y rounded-lg border" aria-label="Conversations">
      {threads.map((thread) => (
        <li key={thread.id}>
          <Link to={`/messages/${thread.id}`} className={cn("grid gap-1 p-4 hover:bg-muted", thread.unread && "bg-muted/50")}>
            <span className="flex flex-wrap items-center justify-between gap-2">
              <span className={cn("[overflow-wrap:anywhere]", thread.unread ? "font-semibold" : "font-medium")}>{thread.otherName}</span>
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                {thread.unread ? <Badge>{MESSAGE_TEXTS.unread}</Badge> : null}
                <time dateTime={thread.lastActivityAt}>{formatDateTime(thread.lastActivityAt)}</time>
              </span>
            </span>
            <span className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{thread.gigTitle}</span>
            <span className="truncate text-sm">{thread.lastLine ?? MESSAGE_TEXTS.emptyForClient}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
