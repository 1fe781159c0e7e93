import { Bell } from "#app/components/icons.tsx";
import { lazy, Suspense, useState } from "react";
import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { BellData } from "#app/components/notification-popover.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { unreadBadge } from "#core/bell.ts";

// The popover (Radix's Popover and its positioning, the list) is loaded once a signed-in page has
// hydrated: a visitor, who has no bell, never downloads it (bench/results/history.md, 'First-visit weight').
const NotificationPopover = lazy(() => import("#app/components/notification-popover.tsx").then((m) => ({ default: m.NotificationPopover })));

/**
 * The top bar's bell: the unread count (from the root loader, per request; signed-in pages
 * are never page-cached) and, opened, the newest 20 entries read from /notifications by a
 * fetcher, with 'Mark all as read'. Before hydration it is a link to /notifications; until its
 * popover has loaded, a button that opens it once it has.
 */
export function NotificationBell() {
  const rootCount = useRouteLoaderData<{ unreadNotifications?: number }>("root")?.unreadNotifications ?? 0;
  const list = useFetcher<BellData>({ key: "notification-bell" });
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
      <Bell aria-hidden="true" />
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
  const waiting = (
    <Button variant="ghost" size="icon" className="relative" aria-label={label} aria-haspopup="dialog" aria-expanded={open} onClick={() => onOpenChange(!open)}>
      {icon}
    </Button>
  );
  return (
    <Suspense fallback={waiting}>
      <NotificationPopover open={open} onOpenChange={onOpenChange} label={label} icon={icon} unread={unread} items={list.data?.page.items} />
    </Suspense>
  );
}
