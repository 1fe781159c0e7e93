import { redirect } from "react-router";
import { ThreadView } from "#app/features/messages/thread-view.tsx";
import { ThreadQuotes } from "#app/features/quotes/thread-quotes.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useLiveRevalidate } from "#app/lib/use-live-events.ts";
import { dayIn } from "#core/dates.ts";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { requireUser } from "#server/auth/guards.ts";
import { MESSAGES, threadParty } from "#server/messages/access.ts";
import { readMessageForm } from "#server/messages/attachments.ts";
import { blockOther, reportMessage, unblockOther } from "#server/messages/safety.ts";
import { sendMessage } from "#server/messages/send.ts";
import { threadPage } from "#server/messages/thread.ts";
import { acceptQuote, declineQuote } from "#server/quotes/decide.ts";
import { reviseQuote, sendQuote, withdrawQuote } from "#server/quotes/send.ts";
import { threadQuotes } from "#server/quotes/thread-quotes.ts";
import { runAction, runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/messages.$threadId";

export const meta = () => [...pageMeta("Messages", "A conversation about a lead."), { name: "robots", content: "noindex" }];

/** One thread, for its two parties only (the 404 page for everyone else); opening it marks it read. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const user = await requireUser(context, request, MESSAGES);
    // `since`: the live stream resyncs at once if an event came between this read and its start.
    const { db, config } = context.services;
    const thread = await threadPage(db, user.id, params.threadId, new URL(request.url).searchParams.get("cursor"));
    // The quotes (issue 33), and today in the server's zone: Valid until's default and earliest day.
    return { thread, quotes: await threadQuotes(db, user.id, params.threadId), today: dayIn(config.timeZone), since: Date.now() };
  });
}

/**
 * Send (a form post comes back to the thread; the page's script gets an answer), Block, Unblock,
 * Report, and the quotes of issue 33 (server/quotes/): send, revise, withdraw, accept, decline.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  return runAction(context, async () => {
    const user = await requireUser(context, request, MESSAGES);
    // A stranger's files are never stored: the thread is checked before the body is read.
    await threadParty(context.services.db, user.id, params.threadId);
    const { form, attachments } = await readMessageForm(context.services.storage, request);
    const db = context.services.db;
    switch (form.get("intent")) {
      case "block":
        return blockOther(db, user.id, params.threadId);
      case "unblock":
        return unblockOther(db, user.id, params.threadId);
      case "report":
        return reportMessage(db, user.id, params.threadId, form);
      case "send-quote":
        return sendQuote(context.services, user.id, params.threadId, form);
      case "revise-quote":
        return reviseQuote(context.services, user.id, params.threadId, form.get("quoteId"), form);
      case "withdraw-quote":
        return withdrawQuote(context.services, user.id, params.threadId, form.get("quoteId"));
      case "accept-quote":
        return acceptQuote(context.services, user.id, params.threadId, form.get("quoteId"));
      case "decline-quote":
        return declineQuote(context.services, user.id, params.threadId, form.get("quoteId"), form);
      default: {
        const sent = await sendMessage(context.services, user.id, params.threadId, form, { attachments });
        if (form.get("js") === "1") return { sent: sent.id };
        throw redirect(`/messages/${sent.threadId}`, 303);
      }
    }
  });
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
  // A message or a read mark of the other party shows without a reload (issue 32, "Live").
  useLiveRevalidate({ since: loaderData.since });
  const { thread } = loaderData;
  return (
    <ThreadView
      thread={thread}
      hasQuotes={loaderData.quotes.length > 0}
      quotes={<ThreadQuotes threadId={thread.id} role={thread.role} diggerHandle={thread.otherName} quotes={loaderData.quotes} today={loaderData.today} canSend={thread.canSend} />}
    />
  );
}
