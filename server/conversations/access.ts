/**
 * Who may see and use a thread: its two parties only (the digger who bought the lead and the
 * gig's client). Everyone else, operators included, gets the 404 page: a thread's address
 * admits nothing. Operators see a reported message and the thread around it only in the console
 * (ops/moderate-message.ts, its queue ops/view-reported-messages.ts).
 */
import { and, eq, or } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import type { SessionUser } from "#core/session-user.ts";
import { signedIn } from "../guards.ts";
import type { Database, Transaction } from "../db/client.ts";
import { threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Access } from "../operation.ts";

/** /messages and /messages/{id}: any signed-in user, their own threads only. */
export const MESSAGES = signedIn({ signedOut: { message: MESSAGE_TEXTS.signedOut } });

export interface ThreadParty {
  id: string;
  role: "digger" | "client";
  userId: string;
  otherId: string;
}

/**
 * A thread's forms: a signed-in party of thread `params.threadId` (the 404 page for anyone
 * else). The route adapter applies it before the thread's form reader streams any file.
 */
export const THREAD: Access<{ user: SessionUser; thread: ThreadParty }> = {
  async resolve(context, route) {
    const { user } = await MESSAGES.resolve(context, route);
    return { user, thread: await threadParty(context.services.db, user.id, route.params.threadId ?? "") };
  },
};

/** A thread its reader may not see, an unknown one and a malformed id alike: the 404 page. */
export const notFound = () => new AppError("not_found", "Page not found");

/**
 * Thread `threadId` as party `userId` sees it; the 404 page for anyone else, an unknown thread
 * and a malformed id alike. `lock`: the row locked for a write (sending, marking read).
 */
export async function threadParty(db: Database | Transaction, userId: string, threadId: string, lock = false): Promise<ThreadParty> {
  if (!isUuid(threadId)) throw notFound();
  const query = db
    .select({ id: threads.id, diggerUserId: threads.diggerUserId, clientId: threads.clientId })
    .from(threads)
    .where(and(eq(threads.id, threadId), or(eq(threads.diggerUserId, userId), eq(threads.clientId, userId))));
  const [thread] = lock ? await query.for("no key update") : await query;
  if (!thread) throw notFound();
  const role = thread.diggerUserId === userId ? "digger" : "client";
  return { id: thread.id, role, userId, otherId: role === "digger" ? thread.clientId : thread.diggerUserId };
}
