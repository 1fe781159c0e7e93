import { redirect } from "react-router";
import { ThreadView } from "#app/features/messages/thread-view.tsx";
import { QuoteCardView, QuoteComposer } from "#app/features/quotes/thread-quotes.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useLiveRevalidate } from "#app/lib/use-live-events.ts";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { readMessageForm } from "#server/messages/attachments.ts";
import {
  acceptThreadQuote,
  blockInThread,
  declineThreadQuote,
  reportInThread,
  reviseThreadQuote,
  sendInThread,
  sendThreadQuote,
  threadView,
  unblockInThread,
  withdrawThreadQuote,
} from "#server/messages/thread-page.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/messages.$threadId";

export const meta = () => [...pageMeta("Messages", "A conversation about a lead."), { name: "robots", content: "noindex" }];

/** One thread, for its two parties only (the 404 page for everyone else); opening it marks it read. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, threadView);
}

/**
 * Send (a form post comes back to the thread; the page's script gets an answer), Block, Unblock,
 * Report, and the quotes of issue 33 (server/quotes/): send, revise, withdraw, accept, decline.
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
  useLiveRevalidate({ since: loaderData.since, shows: (event) => event.kind === "thread" });
  const { thread, today } = loaderData;
  // The quote cards among the messages, where they were sent; the digger's Send a Quote under them.
  return (
    <ThreadView
      thread={thread}
      renderQuote={(quote) => <QuoteCardView quote={quote} threadId={thread.id} role={thread.role} diggerHandle={thread.otherName} today={today} />}
      quotes={thread.role === "digger" && thread.canSend ? <QuoteComposer threadId={thread.id} today={today} state={loaderData.quoteState} /> : null}
    />
  );
}
