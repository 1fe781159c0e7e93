/**
 * The daily lead-alert digest (docs/decisions/0023-lead-alerts.md): at DIGEST_HOUR in the
 * server's time zone, each digger whose alerts are set to Daily digest gets one e-mail listing
 * the gigs that became visible in the last 24 hours, still listed and matching their alerts,
 * newest first: at most 20, then a link to the rest on Browse Gigs. Nothing matched, no e-mail.
 * Once per digger and day: the lead_alert_digests row is claimed with the e-mail.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { dayIn } from "#core/dates.ts";
import { DIGEST_MAX_GIGS } from "#core/lead-alerts.ts";
import type { Config } from "../config.ts";
import { queryRows, type Database } from "../db/client.ts";
import { categories, diggerProfiles, gigs, leadAlertDigests, leadAlertSettings, users } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { forSale } from "../leads/for-sale.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { leadPriceSql, preferencesMatch, savedCategoryMatch } from "./matching.ts";

/** Daily diggers per query. */
const DIGEST_BATCH_SIZE = 200;

interface DigestGig {
  diggerId: string;
  userId: string;
  email: string;
  id: string;
  title: string;
  categoryId: string;
  categoryName: string;
  location: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  leadPriceCents: number;
  maxDiggers: number;
  spotsTaken: number;
  /** How many gigs matched this digger in all (only the first 21 rows come back). */
  total: number;
}

/** The `alerts.digest` job: every daily digger's digest, batch by batch; returns the e-mails sent. */
export async function sendDailyDigests(services: { db: Database; emit: Emit; config: Config }, now: Date = new Date()): Promise<number> {
  const day = dayIn(services.config.timeZone, now);
  let after = "00000000-0000-0000-0000-000000000000";
  let sent = 0;
  for (;;) {
    const batch = await services.db
      .select({ id: leadAlertSettings.diggerId })
      .from(leadAlertSettings)
      .where(and(eq(leadAlertSettings.frequency, "daily"), gt(leadAlertSettings.diggerId, after)))
      .orderBy(leadAlertSettings.diggerId)
      .limit(DIGEST_BATCH_SIZE);
    if (batch.length === 0) return sent;
    after = batch.at(-1)!.id;
    const rows = await digestGigs(services.db, batch.map((b) => b.id), day, now, phoneVerificationOn(services.config));
    const byDigger = new Map<string, DigestGig[]>();
    for (const row of rows) byDigger.set(row.diggerId, [...(byDigger.get(row.diggerId) ?? []), row]);
    for (const gigsOfDigger of byDigger.values()) if (await deliverDigest(services, day, gigsOfDigger)) sent++;
  }
}

/**
 * One query for a batch of daily diggers: the gigs that became visible in the 24 hours before
 * `now`, still listed and matching each digger's alerts, newest first, 21 per digger at most.
 */
async function digestGigs(db: Database, diggerIds: string[], day: string, now: Date, verificationOn: boolean): Promise<DigestGig[]> {
  // Only gigs with a verified phone for the diggers who asked (matching.ts `verifiedPhoneOk`).
  const verifiedPhoneOk = verificationOn ? sql`${gigs.phoneVerifiedAt} is not null` : sql`true`;
  const matched = sql`
    select ${leadAlertSettings.diggerId} as "diggerId", ${users.id} as "userId", ${users.email} as email,
           ${gigs.id} as id, ${gigs.title} as title, ${gigs.categoryId} as "categoryId", ${categories.name} as "categoryName",
           ${gigs.location} as location, ${gigs.budgetMinCents}::float8 as "budgetMinCents", ${gigs.budgetMaxCents}::float8 as "budgetMaxCents",
           ${leadPriceSql(gigs.budgetMinCents)}::int as "leadPriceCents", ${gigs.maxDiggers} as "maxDiggers", ${gigs.purchaseCount} as "spotsTaken",
           count(*) over (partition by ${leadAlertSettings.diggerId})::int as total,
           row_number() over (partition by ${leadAlertSettings.diggerId} order by ${gigs.visibleSince} desc, ${gigs.id} desc) as rank
    from ${leadAlertSettings}
    join ${diggerProfiles} on ${diggerProfiles.id} = ${leadAlertSettings.diggerId}
    join ${users} on ${users.id} = ${diggerProfiles.userId}
    join ${gigs} on ${gigs.visibleSince} > ${now.toISOString()}::timestamptz - interval '24 hours'
                 and ${gigs.visibleSince} <= ${now.toISOString()}::timestamptz and ${forSale()}
    join ${categories} on ${categories.id} = ${gigs.categoryId}
    where ${leadAlertSettings.diggerId} = any(${`{${diggerIds.join(",")}}`}::uuid[])
      and ${leadAlertSettings.frequency} = 'daily'
      and not exists (select 1 from ${leadAlertDigests} where ${leadAlertDigests.diggerId} = ${leadAlertSettings.diggerId} and ${leadAlertDigests.day} = ${day}::date)
      and ${savedCategoryMatch(leadAlertSettings.diggerId, gigs.categoryId)}
      and ${preferencesMatch(leadAlertSettings.diggerId, { id: gigs.id, searchText: gigs.searchText, location: gigs.location, leadPriceCents: leadPriceSql(gigs.budgetMinCents), verifiedPhoneOk })}`;
  return queryRows<DigestGig>(db, sql`select * from (${matched}) m where m.rank <= ${DIGEST_MAX_GIGS + 1} order by m."diggerId", m.rank`);
}

/** One digger's digest for `day`, claimed with its e-mail in one transaction; false when already sent. */
async function deliverDigest({ db, emit, config }: { db: Database; emit: Emit; config: Config }, day: string, rows: DigestGig[]): Promise<boolean> {
  const first = rows[0];
  if (!first) return false;
  const digest = { userId: first.userId, email: first.email, total: first.total, gigs: rows.slice(0, DIGEST_MAX_GIGS), moreUrl: browseLink(config, rows) };
  return db.transaction(async (tx) => {
    const claimed = await tx.insert(leadAlertDigests).values({ diggerId: first.diggerId, day }).onConflictDoNothing().returning({ day: leadAlertDigests.day });
    if (claimed.length === 0) return false;
    const {
      emailIds: [emailId],
    } = await emit(tx, { kind: "lead.digest", ...digest });
    if (emailId) await tx.update(leadAlertDigests).set({ emailId }).where(and(eq(leadAlertDigests.diggerId, first.diggerId), eq(leadAlertDigests.day, day)));
    return true;
  });
}

/** Browse Gigs filtered to the digest's category when its gigs share one; else all of Browse Gigs. */
function browseLink(config: Pick<Config, "publicUrl">, rows: DigestGig[]): string {
  const categoryIds = new Set(rows.map((row) => row.categoryId));
  return categoryIds.size === 1 ? `${config.publicUrl}/browse-gigs?category=${[...categoryIds][0]}` : `${config.publicUrl}/browse-gigs`;
}
