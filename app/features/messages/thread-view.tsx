import { useEffect, type ReactNode } from "react";
import { Form, Link, useFetcher, useRevalidator } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { cn } from "#app/lib/cn.ts";
import { formatDateTime } from "#core/dates.ts";
import {
  blockedByText,
  emptyThreadForDigger,
  MESSAGE_REPORT_REASON_MAX,
  MESSAGE_TEXTS,
  youBlockedText,
  type ThreadMessage,
  type ThreadView as Thread,
} from "#core/messages.ts";
import type { QuoteCard } from "#core/quote-views.ts";
import { MessageAttachments } from "./attachments.tsx";
import { MessageForm } from "./message-form.tsx";
import { MessageText } from "./message-text.tsx";

/**
 * A thread: its header (the other party, the gig, the menu with Block / Unblock), the messages
 * and quote cards in the order they were sent as a log that screen readers announce politely (newest at the bottom, in view from the start:
 * the scroller runs bottom-up), 'Read' under my last message the other party has seen, and the
 * message box at the foot.
 */
/**
 * `renderQuote`: a quote card (app/features/quotes/, composed by the route), shown among the
 * messages where it was sent; `quotes`: the quote forms (Send a Quote), under the list.
 */
export function ThreadView({ thread, renderQuote, quotes }: { thread: Thread; renderQuote?: (quote: QuoteCard) => ReactNode; quotes?: ReactNode }) {
  const readSeq = thread.readByOther?.seq ?? 0;
  const messages = thread.items.flatMap((item) => (item.kind === "message" ? [item.message] : []));
  const lastRead = messages.reverse().find((m) => m.mine && m.seq <= readSeq);
  // Opening the thread read it while the root loader counted it unread: count again.
  const revalidator = useRevalidator();
  useEffect(() => {
    if (thread.markedRead) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per load that marked it read
  }, [thread]);
  return (
    // On a phone it takes the screen under the top bar: less of the page's top padding, none of
    // its bottom padding (the footer starts below the fold), the box a little above the edge.
    <div className="-mt-4 -mb-8 flex h-[calc(100dvh-5rem)] min-h-80 flex-col gap-3 pb-3 sm:my-0 sm:h-[calc(100dvh-9rem)] sm:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b pb-3">
        <div className="min-w-0">
          <h1 className="text-xl font-bold [overflow-wrap:anywhere]">{thread.otherName}</h1>
          <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{thread.gigTitle}</p>
        </div>
        <div className="flex items-center gap-2">
          <Link to="/messages" className={buttonVariants({ variant: "ghost", size: "sm" })}>
            All messages
          </Link>
          <ThreadMenu thread={thread} />
        </div>
      </div>
      {/* Scrolling the log never scrolls the page under it (the box would leave the screen). */}
      <div className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto overscroll-contain">
        <div>
          {thread.earlierCursor ? (
            <div className="mb-3 flex justify-center">
              <Link to={`?cursor=${thread.earlierCursor}`} className={buttonVariants({ variant: "outline", size: "sm" })}>
                {MESSAGE_TEXTS.showEarlier}
              </Link>
            </div>
          ) : null}
          <div role="log" aria-live="polite" aria-label="Conversation">
            <ol className="grid gap-3">
              {thread.items.map((item) =>
                item.kind === "message" ? (
                  <MessageItem key={item.message.id} message={item.message} threadId={thread.id} readAt={item.message.id === lastRead?.id ? thread.readByOther!.at : null} />
                ) : (
                  <li key={item.quote.id} className="grid">
                    {renderQuote?.(item.quote)}
                  </li>
                ),
              )}
            </ol>
          </div>
          {thread.items.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">
              {thread.role === "digger" ? emptyThreadForDigger(thread.otherFirstName) : MESSAGE_TEXTS.emptyForClient}
            </p>
          ) : null}
          {quotes}
        </div>
      </div>
      {thread.iBlocked ? <p role="note" className="text-sm font-medium">{youBlockedText(thread.otherName)}</p> : null}
      {thread.blockedMe && !thread.iBlocked ? <p role="note" className="text-sm font-medium">{blockedByText(thread.otherName)}</p> : null}
      {thread.canSend ? <MessageForm /> : null}
    </div>
  );
}

function MessageItem({ message, threadId, readAt }: { message: ThreadMessage; threadId: string; readAt: string | null }) {
  const replaced = message.state === "hidden" ? MESSAGE_TEXTS.removed : message.state === "deleted" ? MESSAGE_TEXTS.deletedMessage : null;
  return (
    <li className={cn("grid max-w-[85%] gap-1", message.mine ? "justify-self-end justify-items-end" : "justify-self-start")}>
      <div className={cn("rounded-lg px-3 py-2 text-sm", message.mine ? "bg-primary text-primary-foreground" : "bg-muted", replaced && "italic opacity-80")}>
        {replaced ? <p>{replaced}</p> : <MessageText text={message.body} />}
      </div>
      <MessageAttachments threadId={threadId} attachments={message.attachments} mine={message.mine} />
      <p className="text-xs text-muted-foreground">
        <span className="sr-only">{message.mine ? "You, " : ""}</span>
        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
      </p>
      {readAt ? (
        <p className="text-xs text-muted-foreground" data-testid="read-receipt">
          {MESSAGE_TEXTS.read} <time dateTime={readAt}>{formatDateTime(readAt)}</time>
        </p>
      ) : null}
      {!message.mine && message.state === "shown" ? <ReportMessage messageId={message.id} threadId={threadId} /> : null}
    </li>
  );
}

/** Report on a message: a reason, then the console's Messages queue. A disclosure, so it works without JavaScript. */
function ReportMessage({ messageId, threadId }: { messageId: string; threadId: string }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  const reasonId = `report-${messageId}`;
  if (fetcher.data?.success) return <p className="text-xs text-muted-foreground">{MESSAGE_TEXTS.reported}</p>;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted-foreground underline-offset-2 hover:underline">Report</summary>
      <fetcher.Form method="post" action={`/messages/${threadId}`} className="mt-2 grid w-64 max-w-full gap-2">
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="messageId" value={messageId} />
        <label htmlFor={reasonId} className="font-medium">
          Why are you reporting this?
        </label>
        <Textarea id={reasonId} name="reason" rows={2} maxLength={MESSAGE_REPORT_REASON_MAX} required />
        <div>
          <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
            Send report
          </Button>
        </div>
      </fetcher.Form>
    </details>
  );
}

/** The thread's menu: Block the other party, or Unblock them. */
function ThreadMenu({ thread }: { thread: Thread }) {
  return (
    <details className="relative">
      <summary className={cn(buttonVariants({ variant: "outline", size: "sm" }), "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        Thread menu
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-48 rounded-md border bg-background p-2 shadow-md">
        <Form method="post">
          <input type="hidden" name="intent" value={thread.iBlocked ? "unblock" : "block"} />
          <Button type="submit" variant="ghost" size="sm" className="w-full justify-start">
            {thread.iBlocked ? "Unblock" : "Block"}
          </Button>
        </Form>
      </div>
    </details>
  );
}
