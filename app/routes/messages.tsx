import { useAppendingList } from "#app/components/load-more.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { InboxList } from "#app/features/messages/inbox-list.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useLiveRevalidate } from "#app/lib/use-live-events.ts";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { inbox } from "#server/conversations/view-inbox.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/messages";

export const meta = () => [...pageMeta("Messages", "Your conversations with clients and diggers."), { name: "robots", content: "noindex" }];

/** The signed-in user's threads by latest activity, 20 a page. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, inbox);
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  // New messages move their thread to the top and mark it 'Unread' without a reload. A quote's
  // change comes with its thread's event too; the `quotes` event is Compare Quotes' alone.
  useLiveRevalidate({ enabled: loaderData.live, since: loaderData.since, shows: (event) => event.kind === "thread" });
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
