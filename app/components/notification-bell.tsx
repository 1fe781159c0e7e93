import { BellIcon } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { NotificationList } from "#app/components/notification-list.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "#app/components/ui/popover.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { unreadBadge, type NotificationItem } from "#core/notifications.ts";

interface BellData {
  page: { items: NotificationItem[]; nextCursor: string | null };
  unread: number;
}

/**
 * The top bar's bell: the unread count (from the root loader, per request; signed-in pages
 * are never page-cached) and, opened, the newest 20 entries read from /notifications by a
 * fetcher, with 'Mark all as read'. Before hydration it is a link to /notifications.
 */
export function NotificationBell() {
  const rootCount = useRouteLoaderData<{ unreadNotifications?: number }>("root")?.unreadNotifications ?? 0;
  const list = useFetcher<BellData>({ key: "notification-bell" });
  const mark = useFetcher();
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  // The fresher of the two: the list's count while the page it was loaded on is shown (it may
  // be newer than the page), the root loader's after a navigation (React Router runs it again
  // on each one). Both are revalidated after any action (also 'Mark all as read').
  const locationKey = useLocation().key;
  const [loadedOn, setLoadedOn] = useState<string | null>(null);
  const unread = list.data && loadedOn === locationKey ? list.data.unread : rootCount;
  const label = unread > 0 ? `Notifications, ${unreadBadge(unread)} unread` : "Notifications";
  const icon = (
    <>
      <BellIcon aria-hidden="true" />
      {unread > 0 ? (
        <span
          data-testid="unread-count"
          aria-hidden="true"
          className="absolute -top-1 -right-1 min-w-5 rounded-full bg-primary px-1 text-center text-xs leading-5 font-semibold text-primary-foreground"
        >
          {unreadBadge(unread)}
        </span>
      ) : null}
    </>
  );
  if (!hydrated) {
    return (
      <Button asChild variant="ghost" size="icon" className="relative">
        <Link to="/notifications" aria-label={label}>
          {icon}
        </Link>
      </Button>
    );
  }
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setLoadedOn(locationKey);
      void list.load("/notifications");
    }
  };
  const items = list.data?.page.items;
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label}>
          {icon}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 max-w-[calc(100vw-1.5rem)] p-0" aria-label="Notifications">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
          <h2 className="text-sm font-semibold">Notifications</h2>
          <mark.Form method="post" action="/notifications">
            <Button type="submit" variant="ghost" size="sm" disabled={mark.state !== "idle" || unread === 0}>
              Mark all as read
            </Button>
          </mark.Form>
        </div>
        <div className="max-h-[min(24rem,60vh)] overflow-y-auto px-2">
          {items ? (
            <NotificationList items={items} onNavigate={() => setOpen(false)} />
          ) : (
            <p className="py-6 text-center text-sm text-muted-foreground">Loading…</p>
          )}
        </div>
        <div className="border-t px-4 py-2 text-center">
          <Link to="/notifications" onClick={() => setOpen(false)} className="text-sm font-medium text-primary-strong underline-offset-4 hover:underline">
            See all notifications
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
