/**
 * Lead test data written straight to the database: diggers with profiles, gigs, and
 * completed purchases (the purchase flow itself is tested on its own).
 */
import { randomUUID } from "node:crypto";
import { desc, eq, isNull, sql } from "drizzle-orm";
import { leadPriceCents } from "../../core/lead-price.ts";
import { completeCheckout } from "../../server/leads/fulfilment.ts";
import { categories, emails, gigs, leadPurchases, threads } from "../../server/db/schema.ts";
import { addDiggerProfile, signUpAs, type TestUser, type WithDatabase } from "./accounts.ts";
import type { TestApp } from "./app.ts";

export interface TestDigger extends TestUser {
  diggerId: string;
  businessName: string;
}

/** A signed-in digger with a profile. */
export async function diggerWithProfile(app: TestApp, businessName = `Biz ${randomUUID().slice(0, 8)}`): Promise<TestDigger> {
  const user = await signUpAs(app, "digger", `Digger ${randomUUID().slice(0, 6)}`);
  return { ...user, diggerId: await addDiggerProfile(app, user, businessName), businessName };
}

export type TestGig = typeof gigs.$inferSelect;

/** A top-level category of the seeded list (gigs go under one). */
export async function topLevelCategoryId(app: WithDatabase): Promise<string> {
  const [category] = await app.database.db.select({ id: categories.id }).from(categories).where(isNull(categories.parentCategoryId)).limit(1);
  return category!.id;
}

export async function insertGig(app: WithDatabase, clientId: string, over: Partial<typeof gigs.$inferInsert> = {}): Promise<TestGig> {
  const db = app.database.db;
  const categoryId = over.categoryId ?? (await topLevelCategoryId(app));
  const [row] = await db
    .insert(gigs)
    .values({
      clientId,
      title: `Build a cedar deck ${randomUUID().slice(0, 8)}`,
      description: "A 12 by 16 foot cedar deck off the back door, with two steps down to the lawn.",
      location: "Boulder, CO",
      timeline: "Within a month",
      categoryId,
      budgetMinCents: 500_000,
      budgetMaxCents: 900_000,
      contactPreferences: `Call after 6pm ${randomUUID().slice(0, 6)}`,
      contactPhone: `+1 303 ${String(Math.floor(1_000_000 + Math.random() * 8_999_999))}`,
      ...over,
    })
    .returning();
  return row!;
}

/** A purchase of `gig` by `diggerId`: completed (paid at the lead price) unless told otherwise. */
export async function insertPurchase(
  app: WithDatabase,
  gig: TestGig,
  diggerId: string,
  over: Partial<typeof leadPurchases.$inferInsert> = {},
) {
  const completed = (over.status ?? "completed") === "completed";
  const [row] = await app.database.db
    .insert(leadPurchases)
    .values({
      gigId: gig.id,
      diggerId,
      amountPaidCents: leadPriceCents(gig.budgetMinCents),
      status: "completed",
      provider: "test",
      providerSessionId: `test_cs_${randomUUID()}`,
      purchasedAt: completed ? new Date() : null,
      ...over,
    })
    .returning();
  return row!;
}

/** A lead bought through the checkout's completion (as the webhook and the test checkout do): its thread is made with it. */
export interface BoughtLead {
  client: TestUser;
  digger: TestDigger;
  gig: TestGig;
  purchaseId: string;
  threadId: string;
}

/** A lead of `gig` (by default a new gig of a new client, named `clientName`) bought by a new digger. */
export async function boughtLead(app: TestApp, on: { client?: TestUser; gig?: TestGig; clientName?: string } = {}): Promise<BoughtLead> {
  const client = on.client ?? (await signUpAs(app, "consumer", on.clientName ?? "Clara Client"));
  const digger = await diggerWithProfile(app);
  const gig = on.gig ?? (await insertGig(app, client.id));
  const purchase = await insertPurchase(app, gig, digger.diggerId, { status: "pending", purchasedAt: null });
  // A plain check, not vitest's expect: the bench imports this file outside vitest (bench/lib/live.ts).
  const outcome = await completeCheckout(app.services, purchase.providerSessionId!, "pi_test");
  if (outcome !== "completed") throw new Error(`boughtLead: the checkout ended "${outcome}", not "completed"`);
  const [thread] = await app.database.db.select().from(threads).where(eq(threads.purchaseId, purchase.id));
  return { client, digger, gig, purchaseId: purchase.id, threadId: thread!.id };
}

/** The e-mails sent to `address`, newest first. */
export const mailTo = (app: TestApp, address: string) =>
  app.database.db.select().from(emails).where(eq(emails.toAddress, address)).orderBy(desc(emails.createdAt));

/** HTML as text: the entities React writes for quotes and ampersands, decoded. */
export const decodeHtml = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

/** Moves the start of the checkout `sessionId` back `minutes`: a hold of 30 minutes runs out after 30. */
export const ageCheckout = (app: WithDatabase, sessionId: string, minutes: number) =>
  app.database.db
    .update(leadPurchases)
    .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` })
    .where(eq(leadPurchases.providerSessionId, sessionId));
