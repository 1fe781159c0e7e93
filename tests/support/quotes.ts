/**
 * The thread's quote forms as a party sends them, without a request: `perform` parses the form
 * with the operation's own `input` (server/messages/thread-page.ts), as the route adapter does.
 */
import type { SessionUser } from "../../core/session-user.ts";
import { threadParty } from "../../server/messages/access.ts";
import { declineThreadQuote, reviseThreadQuote, sendThreadQuote } from "../../server/messages/thread-page.ts";
import { perform } from "../../server/operation.ts";
import type { TestApp } from "./app.ts";

export const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
};

/** The caller as the thread's access rule resolves it (the operations read the user's id only). */
async function party(app: TestApp, userId: string, threadId: string) {
  return { user: { id: userId } as SessionUser, thread: await threadParty(app.services.db, userId, threadId) };
}

export async function sendQuoteForm(app: TestApp, userId: string, threadId: string, fields: Record<string, string>) {
  return perform(sendThreadQuote, await party(app, userId, threadId), { services: app.services, form: formOf(fields) });
}

export async function reviseQuoteForm(app: TestApp, userId: string, threadId: string, quoteId: string, fields: Record<string, string>) {
  return perform(reviseThreadQuote, await party(app, userId, threadId), { services: app.services, form: formOf({ ...fields, quoteId }) });
}

export async function declineQuoteForm(app: TestApp, userId: string, threadId: string, quoteId: string, fields: Record<string, string> = {}) {
  return perform(declineThreadQuote, await party(app, userId, threadId), { services: app.services, form: formOf({ ...fields, quoteId }) });
}
