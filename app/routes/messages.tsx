import { useAppendingList } from "#app/components/load-more.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { InboxList } from "#app/features/messages/inbox-list.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useLiveRevalidate } from "#app/lib/use-live-events.ts";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { requireUser } from "#server/auth/guards.ts";
import { MESSAGES } from "#server/messages/access.ts";
import { inboxPage } from "#server/messages/inbox.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/messages";

export const meta = () => [...pageMeta("Messages", "Your conversations with clients and diggers."), { name: "robots", content: "noindex" }];

/** The signed-in user's threads by latest activity, 20 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const user = await requireUser(context, request, MESSAGES);
    return { page: await inboxPage(context.services.db, user.id, new URL(request.url).searchParams.get("cursor")), since: Date.now() };
  });
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  // New messages move their thread to the top and mark it 'Unread' without a reload.
  useLiveRevalidate({ since: loaderData.since });
  const { items, loadMore, firstPage } = useAppendingList(loaderData.page);
  return (
    <div>
      <PageHeader title="Messages" subtitle="Your conversations about the leads bought, the latest first." />
      {firstPage}
      {items.length === 0 ? <p className="py-12 text-center text-muted-foreground">{MESSAGE_TEXTS.noThreads}</p> : <InboxList threads={items} />}
      {loadMore}
    </div>
  );
}
