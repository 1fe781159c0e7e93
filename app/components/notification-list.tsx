import { Link } from "#app/components/link.tsx";
import { cn } from "#app/lib/cn.ts";
import type { NotificationEntry } from "#core/bell.ts";

/** The bell's entries (the bell's panel and /notifications): each links to where the action is; unread ones stand out. */
export function NotificationList({ items, onNavigate }: { items: NotificationEntry[]; onNavigate?: () => void }) {
  if (items.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">No notifications yet.</p>;
  return (
    <ul className="divide-y">
      {items.map((item) => (
        <li key={item.id}>
          <Link
            to={item.link}
            onClick={onNavigate}
            className={cn("flex gap-3 rounded-sm px-2 py-3 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring", !item.read && "font-medium")}
          >
            <span aria-hidden="true" className={cn("mt-1.5 size-2 shrink-0 rounded-full", item.read ? "bg-transparent" : "bg-primary")} />
            <span className="min-w-0 flex-1">
              <span className="block break-words">
                {item.read ? null : <span className="sr-only">Unread: </span>}
                {item.text}
              </span>
              <time dateTime={item.createdAt} title={item.createdAtTitle} className="mt-1 block text-xs font-normal text-muted-foreground">
                {item.createdAtText}
              </time>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
