/**
 * The reply guarantee in tests (issue 48): a digger's first message in a bought lead's thread,
 * its times moved back as the clock would (the issue-deadline tests' way), and the pause of a gig
 * nobody can reach (server/leads/pause-gig.ts) run as the guarantee's check runs it.
 */
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { leadPurchases, threads } from "../../server/db/schema.ts";
import { pauseIfUnreached } from "../../server/leads/pause-gig.ts";
import type { TestUser } from "./accounts.ts";
import type { TestApp } from "./app.ts";

/** `user` writes `body` in thread `threadId`, through the thread's form. */
export async function say(user: TestUser, threadId: string, body = "Hello, I can start on Monday.") {
  expect((await user.client.post(`/messages/${threadId}`, { intent: "send", body, js: "1" })).status).toBe(200);
}

/** Moves purchase `purchaseId`'s purchase, its digger's first answer and its guarantee's due time `hours` back. */
export async function moveGuaranteeBack(app: TestApp, purchaseId: string, hours = 48) {
  const back = sql`make_interval(hours => ${hours}::int)`;
  const db = app.database.db;
  await db
    .update(leadPurchases)
    .set({ purchasedAt: sql`${leadPurchases.purchasedAt} - ${back}`, guaranteeDueAt: sql`${leadPurchases.guaranteeDueAt} - ${back}` })
    .where(eq(leadPurchases.id, purchaseId));
  await db.update(threads).set({ diggerFirstAt: sql`${threads.diggerFirstAt} - ${back}` }).where(eq(threads.purchaseId, purchaseId));
}

/** The guarantee's check's pause of gig `gigId`, in a transaction of its own: whether it paused it. */
export const pauseGig = (app: TestApp, gigId: string) => app.database.db.transaction((tx) => pauseIfUnreached(tx, app.services.emit, gigId));
