import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { NotificationList } from "#app/components/notification-list.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "#app/components/ui/popover.tsx";
import type { NotificationEntry } from "#core/bell.ts";

export interface BellData {
  page: { items: NotificationEntry[]; nextCursor: string | null };
  unread: number;
}

/** The bell's button and popover (NotificationBell, app/components/notification-bell.tsx, loads it after hydration). */
export function NotificationPopover({
  open,
  onOpenChange,
  label,
  icon,
  unread,
  items,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  label: string;
  icon: ReactNode;
  unread: number;
  items: NotificationEntry[] | undefined;
}) {
  const mark = useFetcher();
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
            <NotificationList items={items} onNavigate={() => onOpenChange(false)} />
          ) : (
            <p className="py-6 text-center text-sm text-muted-foreground">Loading…</p>
          )}
        </div>
        <div className="border-t px-4 py-2 text-center">
          <Link to="/notifications" onClick={() => onOpenChange(false)} className="text-sm font-medium text-primary-strong underline-offset-4 hover:underline">
            See all notifications
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
