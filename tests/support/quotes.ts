/**
 * The thread's quote forms as a party sends them, without a request: `perform` parses the form
 * with the operation's own `input` (server/conversations/send-quote.ts, revise-quote.ts, decline-quote.ts), as the route adapter does.
 */
import type { SessionUser } from "../../core/session-user.ts";
import { threadParty } from "../../server/conversations/access.ts";
import { declineThreadQuote } from "../../server/conversations/decline-quote.ts";
import { reviseThreadQuote } from "../../server/conversations/revise-quote.ts";
import { sendThreadQuote } from "../../server/conversations/send-quote.ts";
import { perform } from "../../server/operation.ts";
import type { TestApp } from "./app.ts";

export const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
};

/** The caller as the thread's access rule resolves it (the operations read the user's id and time zone only). */
async function party(app: TestApp, userId: string, threadId: string, timeZone: string | null = null) {
  return { user: { id: userId, timeZone } as SessionUser, thread: await threadParty(app.services.db, userId, threadId) };
}

/** `timeZone`: the digger's (their Valid until ends at midnight on their clock); none: the default. */
export async function sendQuoteForm(app: TestApp, userId: string, threadId: string, fields: Record<string, string>, timeZone: string | null = null) {
  return perform(sendThreadQuote, await party(app, userId, threadId, timeZone), { services: app.services, form: formOf(fields) });
}

export async function reviseQuoteForm(app: TestApp, userId: string, threadId: string, quoteId: string, fields: Record<string, string>) {
  return perform(reviseThreadQuote, await party(app, userId, threadId), { services: app.services, form: formOf({ ...fields, quoteId }) });
}

export async function declineQuoteForm(app: TestApp, userId: string, threadId: string, quoteId: string, fields: Record<string, string> = {}) {
  return perform(declineThreadQuote, await party(app, userId, threadId), { services: app.services, form: formOf({ ...fields, quoteId }) });
}
