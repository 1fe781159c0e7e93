import { MoreHorizontal, MoreVertical } from "#app/components/icons.tsx";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, useFetcher, useRevalidator } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, focusBackOnClose } from "#app/components/ui/dialog.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "#app/components/ui/popover.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { cn } from "#app/lib/cn.ts";
import {
  blockedByText,
  emptyThreadForDigger,
  MESSAGE_REPORT_REASON_MAX,
  MESSAGE_TEXTS,
  youBlockedText,
  type ThreadMessage,
  type ThreadView as Thread,
} from "#core/messages.ts";
import { COMPARE_TEXTS, type QuoteCard } from "#core/quote-views.ts";
import type { VisitCard } from "#core/visit-views.ts";
import { MessageAttachments } from "./attachments.tsx";
import { ComposerSheet, type ComposerAction } from "./composer-sheet.tsx";
import { MessageForm } from "./message-form.tsx";
import { MessageText } from "./message-text.tsx";

/**
 * A thread (issue 47, "A chat on a phone"): it fills the screen under the top bar, its header
 * (the other party, the gig, the Thread menu), the messages and quote cards in the order they
 * were sent as a log that screen readers announce politely (newest at the bottom, in view from
 * the start: the scroller runs bottom-up), 'Read' under my last message the other party has
 * seen, and the composer pinned to the bottom. `renderQuote` and `renderVisit`: a quote card
 * (app/features/quotes/) and a visit card (app/features/visits/), composed by the route, shown
 * among the messages where they were sent; `banner`: under the header (the next booked visit,
 * issue 50); `actions`: what the composer's '+' sheet offers (Send a Quote, Propose a visit),
 * `compose`: the one to open at once; `menuItems`: more entries of the Thread menu (the digger's
 * Review {first name}, issue 51).
 */
export function ThreadView({
  thread,
  renderQuote,
  renderVisit,
  banner,
  actions = [],
  compose,
  onComposeClosed,
  notice,
  menuItems,
}: {
  thread: Thread;
  renderQuote?: (quote: QuoteCard) => ReactNode;
  renderVisit?: (visit: VisitCard) => ReactNode;
  /** Under the header, above the log: 'Visit booked: …' (issue 50). */
  banner?: ReactNode;
  /** Under the newest item: the client's next step once they accepted a quote here. */
  notice?: ReactNode;
  actions?: ComposerAction[];
  compose?: string | null;
  onComposeClosed?: () => void;
  /** More entries of the Thread menu, each an `<li>`, before Block. */
  menuItems?: ReactNode;
}) {
  const readSeq = thread.readByOther?.seq ?? 0;
  const messages = thread.items.flatMap((item) => (item.kind === "message" ? [item.message] : []));
  const lastRead = messages.reverse().find((m) => m.mine && m.seq <= readSeq);
  // Opening the thread read it while the root loader counted it unread: count again.
  const revalidator = useRevalidator();
  useEffect(() => {
    if (thread.markedRead) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per load that marked it read
  }, [thread]);
  const { root, log, onScroll } = useFitsScreen();
  return (
    // It takes the screen under the top bar (measured once hydrated; the classes are the first
    // guess): less of the page's top padding, none of its bottom padding (the footer starts
    // below the fold), the composer's foot at the screen's foot.
    <div ref={root} className="-mt-4 -mb-8 flex h-[calc(100dvh-5rem)] min-h-80 flex-col sm:h-[calc(100dvh-6rem)]">
      <div className="flex items-start justify-between gap-2 border-b pb-2">
        <div className="min-w-0">
          <h1 className="truncate text-lg font-bold sm:text-xl">{thread.otherName}</h1>
          <p className="truncate text-sm text-muted-foreground">{thread.gigTitle}</p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Link to="/messages" className={buttonVariants({ variant: "ghost", size: "sm" })}>
            All messages
          </Link>
          <ThreadMenu thread={thread} items={menuItems} />
        </div>
      </div>
      {banner}
      {/* Scrolling the log never scrolls the page under it (the composer would leave the screen). */}
      <div ref={log} onScroll={onScroll} className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto overscroll-contain py-3">
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
                  <MessageItem key={item.message.id} message={item.message} threadId={thread.id} read={item.message.id === lastRead?.id ? thread.readByOther : null} />
                ) : item.kind === "quote" ? (
                  <li key={item.quote.id} className="grid">
                    {renderQuote?.(item.quote)}
                  </li>
                ) : (
                  <li key={item.visit.id} className="grid">
                    {renderVisit?.(item.visit)}
                  </li>
                ),
              )}
            </ol>
          </div>
          {notice ? <div className="mt-3">{notice}</div> : null}
          {thread.items.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">
              {thread.role === "digger" ? emptyThreadForDigger(thread.otherFirstName) : MESSAGE_TEXTS.emptyForClient}
            </p>
          ) : null}
        </div>
      </div>
      {thread.iBlocked ? <p role="note" className="border-t py-2 text-sm font-medium">{youBlockedText(thread.otherName)}</p> : null}
      {thread.blockedMe && !thread.iBlocked ? <p role="note" className="border-t py-2 text-sm font-medium">{blockedByText(thread.otherName)}</p> : null}
      {thread.canSend ? <MessageForm more={<ComposerSheet actions={actions} initial={compose} onClosed={onComposeClosed} />} /> : null}
    </div>
  );
}

/**
 * The thread's height: from its top to the foot of what is visible (the visual viewport: it
 * shrinks when a phone's keyboard opens). When the log was at its end (its newest message in
 * view), it stays there as the height changes; one scrolled back stays where it was.
 */
function useFitsScreen() {
  const root = useRef<HTMLDivElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  useEffect(() => {
    const fit = () => {
      const element = root.current;
      if (!element) return;
      const top = element.getBoundingClientRect().top + window.scrollY;
      const visible = window.visualViewport?.height ?? window.innerHeight;
      element.style.height = `${Math.max(320, Math.round(visible - top))}px`;
      // The log runs bottom-up: its end (the newest message) is scrollTop 0.
      if (atEnd.current && log.current) log.current.scrollTop = 0;
    };
    fit();
    const viewport = window.visualViewport;
    viewport?.addEventListener("resize", fit);
    window.addEventListener("resize", fit);
    return () => {
      viewport?.removeEventListener("resize", fit);
      window.removeEventListener("resize", fit);
    };
  }, []);
  const onScroll = () => {
    if (log.current) atEnd.current = Math.abs(log.current.scrollTop) < 8;
  };
  return { root, log, onScroll };
}

function MessageItem({ message, threadId, read }: { message: ThreadMessage; threadId: string; read: { at: string; text: string } | null }) {
  const replaced = message.state === "hidden" ? MESSAGE_TEXTS.removed : message.state === "deleted" ? MESSAGE_TEXTS.deletedMessage : null;
  return (
    <li className={cn("grid max-w-[85%] gap-1", message.mine ? "justify-self-end justify-items-end" : "justify-self-start")}>
      <div className={cn("rounded-lg px-3 py-2 text-sm", message.mine ? "bg-primary text-primary-foreground" : "bg-muted", replaced && "italic opacity-80")}>
        {replaced ? <p>{replaced}</p> : <MessageText text={message.body} />}
      </div>
      <MessageAttachments threadId={threadId} attachments={message.attachments} mine={message.mine} />
      <div className="flex items-center gap-1 text-xs text-muted-foreground">
        <p>
          <span className="sr-only">{message.mine ? "You, " : ""}</span>
          <time dateTime={message.createdAt}>{message.createdText}</time>
        </p>
        {!message.mine && message.state === "shown" ? <MessageMenu messageId={message.id} threadId={threadId} /> : null}
      </div>
      {read ? (
        <p className="text-xs text-muted-foreground" data-testid="read-receipt">
          {MESSAGE_TEXTS.read} <time dateTime={read.at}>{read.text}</time>
        </p>
      ) : null}
    </li>
  );
}

/**
 * A message's own menu (issue 47): Report, which opens its reason form in a dialog (then the
 * console's Messages queue). More of a message's actions go beside it. Until first pressed it is
 * its button alone, as the popover's trigger renders it closed: the popover, the dialog and the
 * form are made then, open (a page of 50 messages rendered them all for each, issue 52).
 */
function MessageMenu({ messageId, threadId }: { messageId: string; threadId: string }) {
  const [used, setUsed] = useState(false);
  if (used) return <MessageMenuInUse messageId={messageId} threadId={threadId} />;
  return (
    <MessageMenuButton data-slot="popover-trigger" aria-haspopup="dialog" aria-expanded="false" data-state="closed" onClick={() => setUsed(true)} />
  );
}

function MessageMenuButton(props: React.ComponentProps<"button">) {
  return (
    <Button type="button" variant="ghost" size="icon" className="size-7 text-muted-foreground" {...props}>
      <MoreHorizontal aria-hidden="true" />
      <span className="sr-only">Message actions</span>
    </Button>
  );
}

function MessageMenuInUse({ messageId, threadId }: { messageId: string; threadId: string }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  const [menu, setMenu] = useState(true);
  const [reporting, setReporting] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const reasonId = `report-${messageId}`;
  // Once reported, the menu and its dialog give way to the words.
  if (fetcher.data?.success) return <p>{MESSAGE_TEXTS.reported}</p>;
  return (
    <>
      <Popover open={menu} onOpenChange={setMenu}>
        <PopoverTrigger asChild>
          <MessageMenuButton ref={menuButton} />
        </PopoverTrigger>
        <PopoverContent align="start" className="w-40 p-1">
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="w-full justify-start"
            onClick={() => {
              setMenu(false);
              setReporting(true);
            }}
          >
            Report
          </Button>
        </PopoverContent>
      </Popover>
      <Dialog open={reporting} onOpenChange={setReporting}>
        {/* Opened from the menu, which closed: the focus goes back to the menu's button. */}
        <DialogContent onCloseAutoFocus={(event) => focusBackOnClose(event, menuButton)}>
          <DialogHeader>
            <DialogTitle>Report this message</DialogTitle>
            <DialogDescription>Digs & Gigs reviews it; the other party is not told who reported it.</DialogDescription>
          </DialogHeader>
          <fetcher.Form method="post" action={`/messages/${threadId}`} className="grid gap-3">
            <input type="hidden" name="intent" value="report" />
            <input type="hidden" name="messageId" value={messageId} />
            <label htmlFor={reasonId} className="text-sm font-medium">
              Why are you reporting this?
            </label>
            <Textarea id={reasonId} name="reason" rows={3} maxLength={MESSAGE_REPORT_REASON_MAX} required />
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={fetcher.state !== "idle"}>
                Send report
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * The thread's menu (issue 47): the other party's profile (a digger's, for the client: a client
 * has none), the gig, Compare Quotes (the client's), and Block or Unblock. A disclosure: it works
 * without JavaScript.
 */
function ThreadMenu({ thread, items }: { thread: Thread; items?: ReactNode }) {
  const item = cn(buttonVariants({ variant: "ghost", size: "sm" }), "w-full justify-start");
  return (
    <details className="relative">
      <summary className={cn(buttonVariants({ variant: "outline", size: "sm" }), "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        <span className="sr-only sm:not-sr-only">Thread menu</span>
        <MoreVertical aria-hidden="true" className="sm:hidden" />
      </summary>
      <ul className="absolute right-0 z-20 mt-1 grid w-56 gap-0.5 rounded-md border bg-background p-1 shadow-md">
        {thread.otherProfileId ? (
          <li>
            <Link to={`/digger/${thread.otherProfileId}`} className={item}>
              {`${thread.otherName}'s profile`}
            </Link>
          </li>
        ) : null}
        {thread.gigId ? (
          <li>
            <Link to={`/gig/${thread.gigId}`} className={item}>
              The gig
            </Link>
          </li>
        ) : null}
        {thread.role === "client" && thread.gigId ? (
          <li>
            <Link to={`/my-gigs/${thread.gigId}/quotes`} className={item}>
              {COMPARE_TEXTS.title}
            </Link>
          </li>
        ) : null}
        {items}
        <li>
          <Form method="post">
            <input type="hidden" name="intent" value={thread.iBlocked ? "unblock" : "block"} />
            <Button type="submit" variant="ghost" size="sm" className="w-full justify-start">
              {thread.iBlocked ? "Unblock" : "Block"}
            </Button>
          </Form>
        </li>
      </ul>
    </details>
  );
}
