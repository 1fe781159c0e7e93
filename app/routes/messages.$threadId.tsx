import { redirect, useSearchParams } from "react-router";
import { ClientReviewButton } from "#app/features/client-reviews/client-review-dialog.tsx";
import { ThreadView } from "#app/features/messages/thread-view.tsx";
import { AcceptedNotice } from "#app/features/quotes/quote-comparison.tsx";
import { QuoteCardView, sendQuoteAction } from "#app/features/quotes/thread-quotes.tsx";
import { VisitBanner, VisitCardView } from "#app/features/visits/visit-card.tsx";
import { proposeVisitAction } from "#app/features/visits/visit-form.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useLiveRevalidate } from "#app/lib/use-live-events.ts";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { readMessageForm } from "#server/conversations/attachments.ts";
import { acceptThreadQuote } from "#server/conversations/accept-quote.ts";
import { blockInThread } from "#server/conversations/block-other.ts";
import { declineThreadQuote } from "#server/conversations/decline-quote.ts";
import { reportInThread } from "#server/conversations/report-message.ts";
import { reviseThreadQuote } from "#server/conversations/revise-quote.ts";
import { sendInThread } from "#server/conversations/send-message.ts";
import { sendThreadQuote } from "#server/conversations/send-quote.ts";
import { unblockInThread } from "#server/conversations/unblock-other.ts";
import { askThreadOtherTimes } from "#server/conversations/visits/ask-other-times.ts";
import { bookThreadVisit } from "#server/conversations/visits/book-visit.ts";
import { cancelThreadVisit } from "#server/conversations/visits/cancel-visit-in-thread.ts";
import { changeThreadVisit, confirmThreadVisit } from "#server/conversations/visits/answer-in-thread.ts";
import { markThreadVisit } from "#server/conversations/visits/mark-visit.ts";
import { proposeThreadVisit } from "#server/conversations/visits/propose-visit.ts";
import { threadView } from "#server/conversations/view-thread.ts";
import { withdrawThreadQuote } from "#server/conversations/withdraw-quote.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/messages.$threadId";

export const meta = () => [...pageMeta("Messages", "A conversation about a lead."), { name: "robots", content: "noindex" }];

/** One thread, for its two parties only (the 404 page for everyone else); opening it marks it read. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, threadView);
}

/**
 * Send (a form post comes back to the thread; the page's script gets an answer), Block, Unblock,
 * Report, the quotes of issue 33: send, revise, withdraw, accept, decline (one file each in
 * server/conversations/), and the visits of issue 50: propose, book, ask for other times, cancel,
 * mark, confirm, change (server/conversations/visits/).
 * The body is read by the thread's own reader (files streamed to storage), only once the caller
 * is known to be a party of the thread: a stranger's files are never stored.
 */
export async function action(args: Route.ActionArgs) {
  const sent = answering(sendInThread, ({ id, threadId, js }) => {
    if (js) return { sent: id };
    throw redirect(`/messages/${threadId}`, 303);
  });
  return serveIntents(
    args,
    {
      block: blockInThread,
      unblock: unblockInThread,
      report: reportInThread,
      "send-quote": sendThreadQuote,
      "revise-quote": reviseThreadQuote,
      "withdraw-quote": withdrawThreadQuote,
      "accept-quote": acceptThreadQuote,
      "decline-quote": declineThreadQuote,
      "propose-visit": proposeThreadVisit,
      "book-visit": bookThreadVisit,
      "ask-other-times": askThreadOtherTimes,
      "cancel-visit": cancelThreadVisit,
      "mark-visit": markThreadVisit,
      "confirm-visit": confirmThreadVisit,
      "change-visit": changeThreadVisit,
      "*": sent,
    },
    { readForm: ({ request, context }) => readMessageForm(context.services.storage, request) },
  );
}

/** In the browser: a send that never got an answer (the network, a fault) says so, and the box keeps its text. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { error: MESSAGE_TEXTS.notSent };
  }
}

export default function Thread({ loaderData }: Route.ComponentProps) {
  // A message or a read mark of the other party shows without a reload (issue 32, "Live"); any
  // thread's event, not only this one's: the top bar counts the unread threads.
  useLiveRevalidate({ enabled: loaderData.live, since: loaderData.since, shows: (event) => event.kind === "thread" });
  const { thread, today } = loaderData;
  const [params, setParams] = useSearchParams();
  // The composer's '+' sheet: the digger's Send a Quote (issue 47) and Propose a visit (issue 50).
  // `?compose=quote` or `?compose=visit` opens one at once (the gig page's Send a Quote links
  // here); closing it forgets the parameter.
  const actions = [
    thread.role === "digger" ? sendQuoteAction({ threadId: thread.id, today, state: loaderData.quoteState }) : null,
    proposeVisitAction({ threadId: thread.id, form: loaderData.visitForm }),
  ].filter((action) => action !== null);
  const compose = params.get("compose");
  // The client who accepted this thread's quote: what next for the gig (as on Compare Quotes).
  const accepted = thread.items.find((item) => item.kind === "quote" && item.quote.status === "accepted");
  const notice =
    thread.role === "client" && accepted?.kind === "quote" && thread.gig.status === "open" ? (
      <AcceptedNotice comparison={{ accepted: { handle: thread.otherName, priceText: accepted.quote.priceText }, gig: thread.gig }} />
    ) : null;
  return (
    <ThreadView
      thread={thread}
      renderQuote={(quote) => <QuoteCardView quote={quote} threadId={thread.id} role={thread.role} diggerHandle={thread.otherName} today={today} />}
      renderVisit={(visit) => <VisitCardView visit={visit} threadId={thread.id} role={thread.role} otherName={thread.otherName} form={loaderData.visitForm} />}
      banner={thread.nextVisit ? <VisitBanner visit={thread.nextVisit} /> : null}
      actions={actions}
      notice={notice}
      // The digger's review of the client (issue 51), while the lead has a review window.
      menuItems={
        thread.clientReview ? (
          <li>
            <ClientReviewButton purchaseId={thread.clientReview.purchaseId} firstName={thread.clientReview.firstName} menuItem />
          </li>
        ) : null
      }
      compose={compose}
      onComposeClosed={() => {
        if (!compose) return;
        const next = new URLSearchParams(params);
        next.delete("compose");
        setParams(next, { replace: true, preventScrollReset: true });
      }}
    />
  );
}
