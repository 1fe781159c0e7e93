/**
 * Instant lead alerts (docs/decisions/0023-lead-alerts.md). When a gig becomes visible (posted
 * by a confirmed client, its client confirming later, reopened), the writer enqueues ONE
 * `alerts.gig` job in its own transaction; the request never waits for the alerts. That job
 * finds the matching diggers by one query and enqueues their `alerts.deliver` batches; each
 * batch checks its diggers again and sends each one alert (deliverLeadAlert). A digger hears
 * about a gig once, ever: the lead_alerts row is claimed in the transaction that records the
 * e-mail, so reruns, two workers and a reopened gig send nothing twice.
 */
import { and, eq, sql } from "drizzle-orm";
import { leadPriceCents } from "#core/lead-price.ts";
import type { Database, Transaction } from "../db/client.ts";
import { categories, gigs, leadAlerts } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { forSale } from "../leads/for-sale.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { leadAlertsJob } from "../jobs/starts.ts";
import type { Logger } from "../logger.ts";
import { matchingDiggers, type AlertRecipient } from "./matching.ts";

/** Diggers per `alerts.deliver` job: one transaction each, small enough to retry whole. */
export const ALERT_BATCH_SIZE = 100;

/** Called in the transaction that made the gig visible: its alerts go once that commits. */
export async function enqueueLeadAlerts(jobs: JobQueue, tx: Transaction, gigId: string): Promise<void> {
  const job = leadAlertsJob({ id: gigId });
  await jobs.send(job.name, job.data, { tx });
}

/** A gig whose lead is for sale (`forSale()`) with what an alert says of it; null otherwise. */
export async function alertGig(db: Database, gigId: string) {
  const [gig] = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      location: gigs.location,
      searchText: sql<string>`${gigs.searchText}`,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      categoryId: gigs.categoryId,
      categoryName: categories.name,
      parentCategoryId: categories.parentCategoryId,
      maxDiggers: gigs.maxDiggers,
      spotsTaken: gigs.purchaseCount,
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(and(eq(gigs.id, gigId), forSale()));
  return gig ? { ...gig, leadPriceCents: leadPriceCents(gig.budgetMinCents) } : null;
}
export type AlertGig = NonNullable<Awaited<ReturnType<typeof alertGig>>>;

/** The `alerts.gig` job: the matching diggers, in batches of their own jobs. */
export async function fanOutLeadAlerts(services: { db: Database; jobs: JobQueue; logger: Logger }, gigId: string): Promise<number> {
  const gig = await alertGig(services.db, gigId);
  if (!gig) return 0;
  const recipients = await matchingDiggers(services.db, gig, "instant");
  for (let i = 0; i < recipients.length; i += ALERT_BATCH_SIZE) {
    const diggerIds = recipients.slice(i, i + ALERT_BATCH_SIZE).map((r) => r.diggerId);
    await services.jobs.send("alerts.deliver", { gigId, diggerIds });
  }
  services.logger.info({ gigId, diggers: recipients.length }, "lead alerts fanned out");
  return recipients.length;
}

/** The `alerts.deliver` job: each digger of the batch who still matches gets the alert, in one transaction. */
export async function deliverLeadAlertBatch(services: { db: Database; emit: Emit }, gigId: string, diggerIds: string[]): Promise<number> {
  const gig = await alertGig(services.db, gigId);
  if (!gig || diggerIds.length === 0) return 0;
  const recipients = await matchingDiggers(services.db, gig, "instant", diggerIds);
  return services.db.transaction(async (tx) => {
    let sent = 0;
    for (const recipient of recipients) if (await deliverLeadAlert(tx, services, gig, recipient)) sent++;
    return sent;
  });
}

/**
 * One alert to one digger, in the caller's transaction: claims (gig, digger) and records the
 * e-mail; false when the digger already had it. Everything one alert does goes here.
 */
export async function deliverLeadAlert(
  tx: Transaction,
  { emit }: { emit: Emit },
  gig: AlertGig,
  recipient: AlertRecipient,
): Promise<boolean> {
  const claimed = await tx
    .insert(leadAlerts)
    .values({ gigId: gig.id, diggerId: recipient.diggerId })
    .onConflictDoNothing()
    .returning({ gigId: leadAlerts.gigId });
  if (claimed.length === 0) return false;
  // The bell's entry and the e-mail, together (server/events/registry.ts).
  const {
    emailIds: [emailId],
  } = await emit(tx, { kind: "lead.alert", gig, recipient });
  if (emailId) await tx.update(leadAlerts).set({ emailId }).where(and(eq(leadAlerts.gigId, gig.id), eq(leadAlerts.diggerId, recipient.diggerId)));
  return true;
}

