/**
 * A digger's lead-alert preferences: the Lead alerts card on /account reads and saves them,
 * and an alert e-mail's one-click link turns them off. Until saved, a digger has the defaults
 * (Instant, the categories of their profile): no row is written for them, so that a profile
 * made by any path (registration, the seed, tests) gets alerts at once.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import type { leadAlertsSchema} from "#core/lead-alerts.ts";
import { LEAD_ALERT_MESSAGES, type LeadAlertPreferences } from "#core/lead-alerts.ts";
import type { Database, Transaction } from "../db/client.ts";
import { categories, diggerCategories, diggerProfiles, leadAlertCategories, leadAlertSettings, users } from "../db/schema.ts";
import { categoryGroups } from "../diggers/profile-form.ts";
import { AppError } from "../errors.ts";

/** The digger's preferences, saved or by default. */
export async function leadAlertPreferences(db: Database, diggerId: string): Promise<LeadAlertPreferences> {
  const [saved] = await db.select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, diggerId));
  const categoryRows = saved
    ? await db.select({ id: leadAlertCategories.categoryId }).from(leadAlertCategories).where(eq(leadAlertCategories.diggerId, diggerId))
    : await db.select({ id: diggerCategories.categoryId }).from(diggerCategories).where(eq(diggerCategories.diggerId, diggerId));
  return {
    frequency: saved?.frequency ?? "instant",
    categoryIds: categoryRows.map((row) => row.id),
    keywords: saved?.keywords ?? [],
    location: saved?.location ?? null,
    maxLeadPriceCents: saved?.maxLeadPriceCents ?? null,
    verifiedPhoneOnly: saved?.verifiedPhoneOnly ?? false,
  };
}

/**
 * Writes the defaults as a saved row when there is none (Instant, the profile's categories),
 * so that a change of one preference keeps the others as the digger had them.
 */
async function ensureSaved(tx: Transaction, diggerId: string): Promise<void> {
  const created = await tx.insert(leadAlertSettings).values({ diggerId }).onConflictDoNothing().returning({ id: leadAlertSettings.diggerId });
  if (created.length === 0) return;
  await tx.execute(
    sql`insert into ${leadAlertCategories} (digger_id, category_id)
        select ${diggerCategories.diggerId}, ${diggerCategories.categoryId} from ${diggerCategories} where ${diggerCategories.diggerId} = ${diggerId}`,
  );
}

/**
 * The card's Save (`leadAlertsSchema`'s fields, the form read by `leadAlertsInput`): every
 * preference at once, in one transaction. While phone verification is off the card does not
 * offer 'Only gigs with a verified phone', and the saved choice is kept as it was.
 */
export async function saveLeadAlertPreferences(
  db: Database,
  diggerId: string,
  input: z.output<typeof leadAlertsSchema>,
  verificationOn = true,
): Promise<LeadAlertPreferences> {
  const categoryIds = [...new Set(input.categoryIds)];
  if (categoryIds.length > 0) {
    const known = await db.select({ id: categories.id }).from(categories).where(sql`${categories.id} in ${categoryIds}`);
    if (known.length !== categoryIds.length) {
      throw new AppError("invalid_input", LEAD_ALERT_MESSAGES.unknownCategory, { fieldErrors: { categoryIds: LEAD_ALERT_MESSAGES.unknownCategory } });
    }
  }
  const verifiedPhoneOnly = await db.transaction(async (tx) => {
    const values = {
      frequency: input.frequency,
      keywords: input.keywords,
      location: input.location,
      maxLeadPriceCents: input.maxLeadPrice,
      ...(verificationOn ? { verifiedPhoneOnly: input.verifiedPhoneOnly } : {}),
    };
    const [saved] = await tx
      .insert(leadAlertSettings)
      .values({ diggerId, ...values })
      .onConflictDoUpdate({ target: leadAlertSettings.diggerId, set: { ...values, updatedAt: sql`now()` } })
      .returning({ verifiedPhoneOnly: leadAlertSettings.verifiedPhoneOnly });
    await tx.delete(leadAlertCategories).where(eq(leadAlertCategories.diggerId, diggerId));
    if (categoryIds.length > 0) await tx.insert(leadAlertCategories).values(categoryIds.map((categoryId) => ({ diggerId, categoryId })));
    return saved!.verifiedPhoneOnly;
  });
  return { frequency: input.frequency, categoryIds, keywords: input.keywords, location: input.location, maxLeadPriceCents: input.maxLeadPrice, verifiedPhoneOnly };
}

/** The one-click link of an alert e-mail: alerts off for the user's digger profile, nothing else changed. */
export async function turnLeadAlertsOff(db: Database, userId: string): Promise<void> {
  const [profile] = await db
    .select({ id: diggerProfiles.id })
    .from(diggerProfiles)
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(eq(diggerProfiles.userId, userId), isNull(users.deletedAt)));
  if (!profile) return;
  await db.transaction(async (tx) => {
    await ensureSaved(tx, profile.id);
    await tx.update(leadAlertSettings).set({ frequency: "off", updatedAt: sql`now()` }).where(eq(leadAlertSettings.diggerId, profile.id));
  });
}

/**
 * The Lead alerts card of /account: nothing for a client; for a digger without a profile,
 * only that one is needed; else the preferences and every category to choose from, and whether
 * to offer 'Only gigs with a verified phone' (phone verification on, issue 49).
 */
export async function leadAlertsCard(db: Database, user: { id: string; userType: string }, verificationOn = true) {
  if (user.userType !== "digger") return null;
  const [profile] = await db.select({ id: diggerProfiles.id }).from(diggerProfiles).where(eq(diggerProfiles.userId, user.id));
  if (!profile) return { preferences: null, categories: [], verificationOn };
  const [preferences, groups] = await Promise.all([leadAlertPreferences(db, profile.id), categoryGroups(db)]);
  return { preferences, categories: groups, verificationOn };
}
