/**
 * The messages pages as operations (decision 0044): the inbox (/messages), a thread
 * (/messages/{threadId}) and each of its forms (`intent`), and an attachment's download. Each
 * form's work stays where it was (send.ts, safety.ts, quotes/); these declare who may send it.
 *
 * The thread's forms share one rule, `THREAD` (a party of the thread), which the route adapter
 * applies before the page's form reader (`readMessageForm`) streams the body's files to storage:
 * a visitor's or a stranger's upload is never stored.
 */
import { dayIn } from "#core/dates.ts";
import { messageReportSchema, messageSchema } from "#core/messages.ts";
import { declineSchema, quoteSchema } from "#core/quotes.ts";
import { actsAsOperator, anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { acceptQuote, declineQuote } from "../quotes/decide.ts";
import { quoteFormInput } from "../quotes/form.ts";
import { reviseQuote, sendQuote, withdrawQuote } from "../quotes/send.ts";
import { threadQuoteState } from "../quotes/thread-quotes.ts";
import { MESSAGES, THREAD } from "./access.ts";
import { attachmentResponse } from "./attachments.ts";
import { inboxPage } from "./inbox.ts";
import type { AppServices } from "../context.ts";
import { blockOther, reportMessage, unblockOther } from "./safety.ts";
import { sendMessage } from "./send.ts";
import { threadPage } from "./thread.ts";

/** The signed-in user's threads by latest activity, 20 a page. */
export const inbox = defineOperation({
  access: MESSAGES,
  async run({ services: { db }, user, url }) {
    return { page: await inboxPage(db, user.id, url.searchParams.get("cursor")), since: Date.now() };
  },
});

/** One thread, for its two parties only (the 404 page for everyone else); opening it marks it read. */
export const threadView = defineOperation({
  access: MESSAGES,
  async run({ services: { db, config }, user, params, url }) {
    const threadId = params.threadId ?? "";
    // `since`: the live stream resyncs at once if an event came between this read and its start.
    const thread = await threadPage(db, user.id, threadId, url.searchParams.get("cursor"));
    // The quote forms' state (issue 33; the cards are among the thread's items), and today in
    // the server's zone: Valid until's default and earliest day.
    return { thread, quoteState: await threadQuoteState(db, thread.id), today: dayIn(config.timeZone), since: Date.now() };
  },
});

/** Send: the text (`messageSchema`) and the files the form reader stored; `js` when the page's script sent it. */
export const sendInThread = defineOperation({
  access: THREAD,
  input: messageSchema,
  async run({ services, user, thread, form, files, input }) {
    const sent = await sendMessage(services, user.id, thread.id, input, { attachments: files });
    return { id: sent.id, threadId: sent.threadId, js: form?.get("js") === "1" };
  },
});

export const blockInThread = defineOperation({
  access: THREAD,
  run: ({ services: { db }, user, thread }) => blockOther(db, user.id, thread.id),
});

export const unblockInThread = defineOperation({
  access: THREAD,
  run: ({ services: { db }, user, thread }) => unblockOther(db, user.id, thread.id),
});

export const reportInThread = defineOperation({
  access: THREAD,
  input: messageReportSchema,
  run: ({ services: { db }, user, thread, input }) => reportMessage(db, user.id, thread.id, input),
});

/** The quote form's schema knows today in the server's time zone (Valid until's earliest day). */
const quoteInput = ({ services }: { services: AppServices }) => quoteSchema(dayIn(services.config.timeZone));

export const sendThreadQuote = defineOperation({
  access: THREAD,
  input: quoteInput,
  fields: quoteFormInput,
  run: ({ services, user, thread, input }) => sendQuote(services, user.id, thread.id, input),
});

export const reviseThreadQuote = defineOperation({
  access: THREAD,
  input: quoteInput,
  fields: quoteFormInput,
  run: ({ services, user, thread, form, input }) => reviseQuote(services, user.id, thread.id, form?.get("quoteId"), input),
});

export const withdrawThreadQuote = defineOperation({
  access: THREAD,
  run: ({ services, user, thread, form }) => withdrawQuote(services, user.id, thread.id, form?.get("quoteId")),
});

export const acceptThreadQuote = defineOperation({
  access: THREAD,
  run: ({ services, user, thread, form }) => acceptQuote(services, user.id, thread.id, form?.get("quoteId")),
});

export const declineThreadQuote = defineOperation({
  access: THREAD,
  input: declineSchema,
  run: ({ services, user, thread, form, input }) => declineQuote(services, user.id, thread.id, form?.get("quoteId"), input),
});

/**
 * A message's attachment: the thread's parties while the message is shown, operators when it
 * was reported (the console's rule, `actsAsOperator`); the 404 page for anyone else.
 */
export const messageAttachment = defineOperation({
  access: anyone,
  run: ({ services, user, params }) =>
    attachmentResponse(services, user, actsAsOperator(services.config, user), params.threadId ?? "", params.id ?? ""),
});
