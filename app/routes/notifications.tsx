import { Form, useNavigation } from "react-router";
import { NotificationList } from "#app/components/notification-list.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { unreadBadge } from "#core/bell.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { markAllNotificationsRead } from "#server/notifications/mark-all-read.ts";
import { notificationsView } from "#server/notifications/view-notifications.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/notifications";

export const meta = () => pageMeta("Notifications", "What happened on your gigs, leads and requests.");

/** The signed-in user's own notifications, newest first, 20 a page; the bell reads the first page with a fetcher. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, notificationsView);
}

/** 'Mark all as read', of the signed-in user's own notifications only. */
export async function action(args: Route.ActionArgs) {
  return serveAction(args, markAllNotificationsRead);
}

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData);
  const busy = useNavigation().state === "submitting";
  const { page, unread } = loaderData;
  return (
    <div>
      <PageHeader title="Notifications" subtitle="What happened on your gigs, leads and requests, newest first." />
      <div className="mb-4 flex items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{unread === 0 ? "No unread notifications" : `${unreadBadge(unread)} unread`}</p>
        <Form method="post">
          <Button type="submit" variant="outline" size="sm" disabled={busy || unread === 0}>
            Mark all as read
          </Button>
        </Form>
      </div>
      <Card>
        <CardContent>
          <NotificationList items={page.items} />
        </CardContent>
      </Card>
      <NextPageLink nextCursor={page.nextCursor} label="Older notifications" />
    </div>
  );
}
