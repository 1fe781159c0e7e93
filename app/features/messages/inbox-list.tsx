import { Link } from "#app/components/link.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { cn } from "#app/lib/cn.ts";
import { MESSAGE_TEXTS, type InboxThread } from "#core/messages.ts";

/** The inbox: each thread with the other party, a subtitle for its reader, the thread's last event, its time and 'Unread'. */
export function InboxList({ threads }: { threads: InboxThread[] }) {
  return (
    <ul className="divide-y rounded-lg border" aria-label="Conversations">
      {threads.map((thread) => (
        <li key={thread.id}>
          <Link to={`/messages/${thread.id}`} className={cn("grid grid-cols-1 gap-0.5 p-4 hover:bg-muted", thread.unread && "bg-muted/50")}>
            <span className="flex items-baseline justify-between gap-2">
              <span className={cn("min-w-0 truncate", thread.unread ? "font-semibold" : "font-medium")}>{thread.otherName}</span>
              <time dateTime={thread.lastActivityAt} className="shrink-0 text-xs text-muted-foreground">
                {thread.lastActivityText}
              </time>
            </span>
            <span className="truncate text-sm text-muted-foreground">{thread.subtitle}</span>
            <span className="flex items-center justify-between gap-2">
              <span className={cn("min-w-0 truncate text-sm", thread.unread && "font-medium")}>{thread.lastEvent ?? MESSAGE_TEXTS.emptyForClient}</span>
              {thread.unread ? <Badge className="shrink-0">{MESSAGE_TEXTS.unread}</Badge> : null}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
