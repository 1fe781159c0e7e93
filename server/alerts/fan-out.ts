/**
 * Instant lead alerts (docs/decisions/0023-lead-alerts.md). When a gig becomes visible (posted
 * by a confirmed client, its client confirming later, reopened), the writer's event ("gig.visible",
 * "account.email-confirmed") starts ONE `alerts.gig` job in its own transaction; the request never
 * waits for the alerts. That job finds the matching diggers by one query and starts their
 * `alerts.deliver` batches ("lead.alerts-matched", one transaction); each
 * batch checks its diggers again and sends each one alert (deliverLeadAlerts). A digger hears
 * about a gig once, ever: the lead_alerts row is claimed in the transaction that records the
 * e-mail, so reruns, two workers and a reopened gig send nothing twice.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import type { Database, Transaction } from "../db/client.ts";
import { categories, gigs, leadAlerts } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { forSale } from "../leads/for-sale.ts";
import type { Logger } from "../logger.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { matchingDiggers, type AlertRecipient } from "./matching.ts";

/** Diggers per `alerts.deliver` job: one transaction each, small enough to retry whole. */
const ALERT_BATCH_SIZE = 100;

/**
 * A gig whose lead is for sale (`forSale()`) with what an alert says of it; null otherwise.
 * `verificationOn`: phoneVerificationOn(config) (matching.ts `verifiedPhoneOk`).
 */
export async function alertGig(db: Database, gigId: string, verificationOn = true) {
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
      phoneVerified: sql<boolean>`${gigs.phoneVerifiedAt} is not null`,
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(and(eq(gigs.id, gigId), forSale()));
  return gig ? { ...gig, leadPriceCents: leadPriceCents(gig.budgetMinCents), verifiedPhoneOk: gig.phoneVerified || !verificationOn } : null;
}
type AlertGig = NonNullable<Awaited<ReturnType<typeof alertGig>>>;

/**
 * The `alerts.gig` job: the matching diggers, in batches of their own jobs. A digger who wants
 * only gigs with a verified phone is left out while the gig's is not: the job runs again when
 * its client verifies it (the event "phone.verified"), and then tells them.
 */
export async function fanOutLeadAlerts(services: { db: Database; emit: Emit; logger: Logger; config: Pick<Config, "sms"> }, gigId: string): Promise<number> {
  const gig = await alertGig(services.db, gigId, phoneVerificationOn(services.config));
  if (!gig) return 0;
  const recipients = await matchingDiggers(services.db, gig, "instant");
  const batches: string[][] = [];
  for (let i = 0; i < recipients.length; i += ALERT_BATCH_SIZE) batches.push(recipients.slice(i, i + ALERT_BATCH_SIZE).map((r) => r.diggerId));
  if (batches.length > 0) await services.emit(services.db, { kind: "lead.alerts-matched", gigId, batches });
  services.logger.info({ gigId, diggers: recipients.length }, "lead alerts fanned out");
  return recipients.length;
}

/** The `alerts.deliver` job: each digger of the batch who still matches gets the alert, in one transaction. */
export async function deliverLeadAlertBatch(
  services: { db: Database; emit: Emit; config: Pick<Config, "sms"> },
  gigId: string,
  diggerIds: string[],
): Promise<number> {
  const gig = await alertGig(services.db, gigId, phoneVerificationOn(services.config));
  if (!gig || diggerIds.length === 0) return 0;
  const recipients = await matchingDiggers(services.db, gig, "instant", diggerIds);
  return services.db.transaction((tx) => deliverLeadAlerts(tx, services, gig, recipients));
}

/**
 * One gig's alerts to some diggers, in the caller's transaction: claims (gig, digger) for all of
 * them in one statement, tells each digger whose claim is new (the bell's entry and the e-mail,
 * server/events/registry.ts), and records the e-mails in one statement; returns how many were
 * told. A digger who already had the alert (a rerun, a second worker, a reopened gig) is told
 * nothing. Everything an alert does goes here.
 */
async function deliverLeadAlerts(tx: Transaction, { emit }: { emit: Emit }, gig: AlertGig, recipients: AlertRecipient[]): Promise<number> {
  if (recipients.length === 0) return 0;
  // In the diggers' order, so that two transactions claiming overlapping diggers wait for each
  // other on the key instead of deadlocking.
  const sorted = [...recipients].sort((a, b) => (a.diggerId < b.diggerId ? -1 : a.diggerId > b.diggerId ? 1 : 0));
  const claimed = await tx
    .insert(leadAlerts)
    .values(sorted.map((r) => ({ gigId: gig.id, diggerId: r.diggerId })))
    .onConflictDoNothing()
    .returning({ diggerId: leadAlerts.diggerId });
  const fresh = new Set(claimed.map((c) => c.diggerId));
  const emailed: Array<{ diggerId: string; emailId: string }> = [];
  for (const recipient of sorted) {
    if (!fresh.has(recipient.diggerId)) continue;
    const {
      emailIds: [emailId],
    } = await emit(tx, { kind: "lead.alert", gig, recipient });
    if (emailId) emailed.push({ diggerId: recipient.diggerId, emailId });
  }
  if (emailed.length > 0) {
    // Our own uuids, as array literals (as matching.ts passes them).
    const diggers = `{${emailed.map((e) => e.diggerId).join(",")}}`;
    const emailIds = `{${emailed.map((e) => e.emailId).join(",")}}`;
    await tx.execute(sql`update ${leadAlerts} set email_id = sent.email_id
      from unnest(${diggers}::uuid[], ${emailIds}::uuid[]) as sent(digger_id, email_id)
      where ${leadAlerts.gigId} = ${gig.id} and ${leadAlerts.diggerId} = sent.digger_id`);
  }
  return fresh.size;
}
