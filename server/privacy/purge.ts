/**
 * The purge: once `ACCOUNT_PURGE_DELAY_HOURS` have passed since a deletion request, the
 * account's personal data is removed, or anonymised where a payment record must keep a row
 * to point at (spec section 1: deleted within 30 days).
 *
 * Removed: sessions, sign-in methods, two-factor secrets, reset tokens, the e-mails sent to
 * the user, reference contact requests they made, their digger references (with the
 * requests for them), categories, photos and credential proofs, gigs nobody ever paid for, and finally the
 * account itself when nothing points at it any more.
 * Kept, anonymised: a gig with lead purchases (title, description, location, timeline and
 * contact preferences replaced; budget and category stay, they identify nobody); a digger
 * profile with purchases or issues (handle `deleted_...`, every other personal field
 * emptied); the descriptions of issues the digger reported; the account row as
 * "Deleted user" with a unique address that cannot receive mail. Lead purchases, lead issues
 * and refunds keep every amount and status, so the payment records stay whole.
 *
 * Each account is purged in its own transaction that first locks its row (skipping rows
 * another purge holds), so running the purge twice, or twice at once, does the work once.
 */
import { and, arrayOverlaps, asc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import { purgeMessagesOf } from "../conversations/privacy.ts";
import { purgeQuotesOf } from "../conversations/quote-privacy.ts";
import type { Database, Transaction } from "../db/client.ts";
import {
  accounts,
  credentialDocuments,
  diggerCategories,
  leadAlertSettings,
  diggerProfiles,
  diggerReferences,
  emails,
  gigs,
  leadIssues,
  leadPurchases,
  notifications,
  phoneCodes,
  phoneVerifications,
  referenceContactRequests,
  sessions,
  twoFactors,
  users,
  verifications,
} from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { keyOfUploadUrl, type Storage } from "../storage/storage.ts";

export interface PurgeServices {
  db: Database;
  storage: Storage;
  logger: Logger;
  config: { accountPurgeDelayHours: number };
}

export const ANONYMISED = {
  userName: "Deleted user",
  userEmail: (userId: string) => `deleted-${userId.toLowerCase()}@invalid`,
  /** Handles are 1 to 30 of [a-z0-9_]; the profile id keeps them unique. */
  handle: (profileId: string) => `deleted_${profileId.replace(/-/g, "").slice(0, 22)}`,
  businessName: "Deleted digger",
  gigTitle: "Removed gig (account deleted)",
  gigDescription: "The client deleted their account; the details of this gig were removed.",
  removed: "Removed",
  issueDescription: "Removed: the digger deleted their account.",
} as const;

const BATCH_SIZE = 100;

/** Purges every account whose delay has passed; returns how many this run purged. */
export async function purgeDeletedAccounts(services: PurgeServices): Promise<number> {
  const { db, config, logger } = services;
  const delaySeconds = config.accountPurgeDelayHours * 3600;
  let purged = 0;
  for (;;) {
    const due = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          isNotNull(users.deletedAt),
          isNull(users.purgedAt),
          lte(users.deletedAt, sql`now() - make_interval(secs => ${delaySeconds})`),
        ),
      )
      .orderBy(asc(users.deletedAt), asc(users.id))
      .limit(BATCH_SIZE);
    let purgedNow = 0;
    for (const { id } of due) {
      try {
        if (await purgeAccount(services, id, delaySeconds)) purgedNow += 1;
      } catch (error) {
        // Left as it is: the next run tries again.
        logger.error({ err: error, userId: id }, "account purge failed");
      }
    }
    purged += purgedNow;
    // A full batch with progress may have more behind it; otherwise this run is done.
    if (due.length < BATCH_SIZE || purgedNow === 0) return purged;
  }
}

/** Purges one account; false when it is not due, already purged, or another purge holds it. */
async function purgeAccount(services: PurgeServices, userId: string, delaySeconds: number): Promise<boolean> {
  const { db, storage, logger } = services;
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.id, userId),
          isNull(users.purgedAt),
          lte(users.deletedAt, sql`now() - make_interval(secs => ${delaySeconds})`),
        ),
      )
      .for("update", { skipLocked: true });
    if (!user) return false;

    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(accounts).where(eq(accounts.userId, userId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
    await tx.delete(verifications).where(eq(verifications.value, userId));
    await tx
      .delete(emails)
      .where(or(eq(emails.userId, userId), sql`lower(${emails.toAddress}) = ${user.email.toLowerCase()}`));
    await tx.delete(referenceContactRequests).where(eq(referenceContactRequests.clientId, userId));
    // Phones (issue 49): gone at the request already (deletion.ts); again here for an account deleted before that.
    await tx.delete(phoneCodes).where(eq(phoneCodes.userId, userId));
    await tx.delete(phoneVerifications).where(eq(phoneVerifications.userId, userId));
    // The bell's entries name other people's gigs and handles: they go with the account.
    await tx.delete(notifications).where(eq(notifications.userId, userId));
    // Conversations stay with the other party, without this account's words ('Message deleted').
    const attachmentKeys = await purgeMessagesOf(tx, userId);
    // So do quotes, with their prices but without this account's words.
    await purgeQuotesOf(tx, userId);

    const keptGigs = await purgeGigs(tx, userId);
    const { keptProfile, photoKeys } = await purgeDiggerProfile(tx, userId);
    // Photos go before the commit: should the commit fail, the next run finds the same
    // addresses and deleting a missing file is no error.
    for (const key of [...photoKeys, ...attachmentKeys]) await storage.delete(key);

    if (keptGigs === 0 && !keptProfile) {
      await tx.delete(users).where(eq(users.id, userId));
    } else {
      await tx
        .update(users)
        .set({
          name: ANONYMISED.userName,
          email: ANONYMISED.userEmail(userId),
          emailVerified: false,
          image: null,
          twoFactorEnabled: false,
          promotionalEmail: false,
          phone: null,
          purgedAt: sql`now()`,
        })
        .where(eq(users.id, userId));
    }
    logger.info({ userId, keptGigs, keptProfile }, "account purged");
    return true;
  });
}

const hasPurchases = (gigId: typeof gigs.id) =>
  sql`exists (select 1 from ${leadPurchases} where ${leadPurchases.gigId} = ${gigId})`;

/** Deletes the gigs nobody paid for and anonymises the rest; returns how many were kept. */
async function purgeGigs(tx: Transaction, userId: string): Promise<number> {
  await tx.delete(gigs).where(and(eq(gigs.clientId, userId), sql`not ${hasPurchases(gigs.id)}`));
  const kept = await tx
    .update(gigs)
    .set({
      title: ANONYMISED.gigTitle,
      description: ANONYMISED.gigDescription,
      location: ANONYMISED.removed,
      timeline: ANONYMISED.removed,
      contactPreferences: null,
      contactPhone: null,
      status: "closed",
    })
    .where(eq(gigs.clientId, userId))
    .returning({ id: gigs.id });
  return kept.length;
}

/**
 * Removes the digger profile's references, categories, photos and credential proofs; deletes the
 * profile when no purchase or issue points at it, else anonymises it. Returns the keys of files
 * no other profile uses (photos, proof documents), for the caller to delete from storage.
 */
async function purgeDiggerProfile(tx: Transaction, userId: string): Promise<{ keptProfile: boolean; photoKeys: string[] }> {
  const p = diggerProfiles;
  const [profile] = await tx
    .select({ id: p.id, profileImageUrl: p.profileImageUrl, workPhotos: p.workPhotos })
    .from(p)
    .where(eq(p.userId, userId));
  if (!profile) return { keptProfile: false, photoKeys: [] };

  const urls = [profile.profileImageUrl, ...profile.workPhotos].filter((u): u is string => Boolean(u));
  const shared =
    urls.length === 0
      ? []
      : await tx
          .select({ profileImageUrl: p.profileImageUrl, workPhotos: p.workPhotos })
          .from(p)
          .where(
            and(
              ne(p.id, profile.id),
              or(inArray(p.profileImageUrl, urls), arrayOverlaps(p.workPhotos, urls)),
            ),
          );
  const usedElsewhere = new Set(shared.flatMap((s) => [s.profileImageUrl, ...s.workPhotos]));
  const photoKeys = [...new Set(urls)]
    .filter((url) => !usedElsewhere.has(url))
    .map(keyOfUploadUrl)
    .filter((key): key is string => key !== null);

  // Proof documents (licences, policies) are personal data: their rows and files go, whatever their state.
  const proofs = await tx
    .delete(credentialDocuments)
    .where(eq(credentialDocuments.diggerId, profile.id))
    .returning({ key: credentialDocuments.documentKey });
  photoKeys.push(...proofs.map((proof) => proof.key));
  await tx.delete(diggerReferences).where(eq(diggerReferences.diggerId, profile.id));
  await tx.delete(diggerCategories).where(eq(diggerCategories.diggerId, profile.id));
  // Lead alerts' keywords and location are the digger's own words (their categories go with them).
  await tx.delete(leadAlertSettings).where(eq(leadAlertSettings.diggerId, profile.id));
  await tx
    .update(leadIssues)
    .set({ description: ANONYMISED.issueDescription })
    .where(eq(leadIssues.diggerId, profile.id));

  const [paymentRecord] = await tx
    .select({ one: sql`1` })
    .from(leadPurchases)
    .where(eq(leadPurchases.diggerId, profile.id))
    .limit(1);
  if (!paymentRecord) {
    await tx.delete(p).where(eq(p.id, profile.id));
    return { keptProfile: false, photoKeys };
  }
  await tx
    .update(p)
    .set({
      handle: ANONYMISED.handle(profile.id),
      businessName: ANONYMISED.businessName,
      phone: "",
      location: "",
      profession: "",
      bio: "",
      profileImageUrl: null,
      portfolioUrl: null,
      hourlyRateMinCents: null,
      hourlyRateMaxCents: null,
      yearsExperience: null,
      availability: null,
      responseTimeHours: null,
      workPhotos: [],
      hiddenAt: sql`coalesce(${p.hiddenAt}, now())`,
    })
    .where(eq(p.id, profile.id));
  return { keptProfile: true, photoKeys };
}
