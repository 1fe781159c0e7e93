/**
 * One gig as anyone may see it: the poster appears by first name only. A gig that is not
 * published yet (its client has not confirmed their e-mail) exists only for its client.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { UserType } from "#core/sign-in-schemas.ts";
import { formatDate } from "#core/dates.ts";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { clientRecordLines } from "#core/reply-guarantee.ts";
import { clientRatingLine } from "#core/two-way-reviews.ts";
import { phoneStatus } from "#core/phone-verification.ts";
import type { Database } from "../db/client.ts";
import { categories, clientRecords, diggerProfiles, gigs, leadPurchases, quotes, threads, users } from "../db/schema.ts";
import { contactForBuyer } from "../leads/has-purchased.ts";
import { hasCompletedPurchase, holdsSpot } from "../leads/spots.ts";
import { gigNotFound, whyNotForSaleOf, withdrawn as withdrawnGig } from "../leads/for-sale.ts";
import { actsAsOperator, anyone } from "../guards.ts";
import { isEmailConfirmed } from "../sign-in/confirm-email.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import { clientReviewsSection } from "../reviews/client-reviews-list.ts";
import { recordColumns, recordMonths } from "./client-record.ts";

/**
 * The page /gig/{id}: the gig with its spots, and for a digger whether they already bought its
 * lead (then with the client's contact details) or hold a checkout for it.
 * Throws `gigNotFound` when the viewer may not see it.
 */
type GigViewer = { id: string; userType: UserType; operator?: boolean } | null;

/**
 * Gig `id` as `viewer` may see it, or `gigNotFound`. A gig an operator took down stays visible
 * to its owner, to those who bought its lead (they keep the contact they paid for) and to
 * operators (the console links to it); for everyone else it is gone. The page, and every form
 * acting on what the page shows (a client review's Report), asks here.
 */
async function seenGig(db: Database, id: string, viewer: GigViewer) {
  const found = await getPublicGig(db, id, viewer?.id ?? null);
  if (!found) throw gigNotFound();
  const digger = viewer?.userType === "digger" ? viewer.id : null;
  /** Only a digger who bought the lead gets the client's contact details, right on the page. */
  const bought = digger ? await contactForBuyer(db, id, digger) : null;
  const owner = viewer !== null && viewer.id === found.ownerId;
  const operator = viewer?.operator === true;
  if (found.withdrawn && !owner && bought === null && !operator) throw gigNotFound();
  return { found, digger, bought, owner, operator };
}

/** The client of gig `id` when `viewer` may see its page (its Client reviews section), else `gigNotFound`. */
export async function gigClientSeenBy(db: Database, id: string, viewer: GigViewer): Promise<string> {
  return (await seenGig(db, id, viewer)).found.ownerId;
}

async function gigPage(db: Database, id: string, viewer: GigViewer, time: ReaderTime, verificationOn: boolean, reviewsCursor: string | null) {
  const { found, digger, bought, owner, operator } = await seenGig(db, id, viewer);
  // The buyer's next step is the conversation (issue 47): Message {first name}, and Send a Quote when they may.
  const contact = bought && digger ? { ...bought, ...(await buyerThread(db, id, digger)) } : null;
  const { gig } = found;
  return {
    gig,
    /** Written by the server in the reader's zone (issue 47): 'Posted 3 hours ago by Hana', and the deadline (a calendar day). */
    posted: `Posted ${time.ago(gig.createdAt)} by ${gig.posterFirstName}`,
    deadline: gig.deadline ? formatDate(gig.deadline) : "No deadline",
    /**
     * 'About this client' (issue 48): the client's record in lines ('New client', 'Replied to 5
     * of 6 diggers', ...), the same for every viewer, the client included: it is about them and
     * holds nothing private (no digger's name, no message).
     */
    clientRecord: found.clientRecord,
    /** Its rating line, '4.8 from 3 diggers' (issue 51), null without a published review: the block marks it. */
    clientRating: clientRatingLine(found.reviewAverage, found.reviewCount),
    /**
     * The Client reviews section (issue 51): the client's published reviews from diggers, to the
     * same viewers as the record (a review is public once published, as a digger's are on their
     * profile); `?cursor=` its next page.
     */
    clientReviews: await clientReviewsSection(db, found.ownerId, reviewsCursor, time, found.reviewCount),
    /**
     * 'Phone verified' or 'Phone not verified' (issue 49), for every viewer: never the number,
     * which only buyers get (`contact`); null without a phone or while verification is off.
     */
    phoneStatus: phoneStatus(verificationOn, found.hasPhone, found.phoneVerified),
    /** Why Buy is not offered (`whyNotForSale`, server/leads/for-sale.ts), or null when the lead is for sale. */
    notForSale: found.notForSale,
    withdrawn: withdrawnNotice(found.withdrawn, owner || operator),
    purchased: contact !== null,
    contact,
    /** The viewer posted this gig: the page says so instead of offering the purchase, with Edit and (nobody bought it) Delete. */
    own: owner ? { deletable: !(await completedPurchase(db, id)) } : null,
    /** A checkout of this digger's holds a spot: Buy continues it, even when the others fill the lead. */
    holding: digger ? await holdsSpot(db, id, digger) : false,
    /** A digger who has not confirmed their e-mail: Purchase Lead is the notice with the resend button (issue 45). */
    confirmEmail: digger ? !(await isEmailConfirmed(db, digger)) : false,
  };
}

/**
 * What the page says about a withdrawn gig: why, to its owner and operators (the operator's
 * reason is theirs only); to a buyer only that it is no longer listed.
 */
export type WithdrawnNotice =
  | { why: "hidden"; reason: string }
  | { why: "owner_suspended" }
  | { why: "unlisted" };

function withdrawnNotice(withdrawn: { hiddenReason: string | null } | null, mayKnowWhy: boolean): WithdrawnNotice | null {
  if (!withdrawn) return null;
  if (!mayKnowWhy) return { why: "unlisted" };
  return withdrawn.hiddenReason !== null ? { why: "hidden", reason: withdrawn.hiddenReason } : { why: "owner_suspended" };
}

/**
 * The thread of user `diggerUserId`'s completed purchase of gig `gigId` and whether they may quote
 * there: not on a lead refunded in full, not once a quote of the gig is accepted, not after the
 * client chose another digger (the thread's quote 'not_chosen'); conversations/quote-writing.ts
 * refuses the same.
 */
async function buyerThread(db: Database, gigId: string, diggerUserId: string): Promise<{ threadId: string | null; canQuote: boolean }> {
  const [row] = await db
    .select({
      threadId: threads.id,
      canQuote: sql<boolean>`(not purchase_fully_refunded(${leadPurchases.id})
        and not exists (select 1 from ${quotes} where ${quotes.gigId} = ${leadPurchases.gigId} and ${quotes.status} = 'accepted')
        and not exists (select 1 from ${quotes} where ${quotes.threadId} = ${threads.id} and ${quotes.status} = 'not_chosen'))`,
    })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .innerJoin(threads, eq(threads.purchaseId, leadPurchases.id))
    .where(and(eq(leadPurchases.gigId, gigId), eq(diggerProfiles.userId, diggerUserId), eq(leadPurchases.status, "completed")));
  return row ?? { threadId: null, canQuote: false };
}

async function completedPurchase(db: Database, gigId: string): Promise<boolean> {
  const [row] = await db.select({ completed: hasCompletedPurchase(sql`${gigId}::uuid`) }).from(gigs).where(eq(gigs.id, gigId));
  return row?.completed !== false;
}

async function getPublicGig(db: Database, id: string, viewerId: string | null) {
  if (!isUuid(id)) return null;
  // The client's record, joined by primary keys: no second round trip for the page.
  const months = recordMonths(db, gigs.clientId);
  const [row] = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      description: gigs.description,
      location: gigs.location,
      timeline: gigs.timeline,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      deadline: gigs.deadline,
      status: gigs.status,
      published: gigs.published,
      createdAt: gigs.createdAt,
      purchaseCount: gigs.purchaseCount,
      maxDiggers: gigs.maxDiggers,
      /** Completed purchases: only they fill the lead (decision 0030). */
      spotsTaken: gigs.purchaseCount,
      categoryName: categories.name,
      categoryDescription: categories.description,
      posterFirstName: sql<string>`split_part(btrim(${users.name}), ' ', 1)`,
      clientId: gigs.clientId,
      withdrawn: withdrawnGig(),
      notForSale: whyNotForSaleOf(),
      hiddenReason: gigs.hiddenReason,
      // Whether the gig has a phone and its client verified it: never the number itself.
      hasPhone: sql<boolean>`${gigs.contactPhone} is not null`,
      phoneVerified: sql<boolean>`${gigs.phoneVerifiedAt} is not null`,
      record: recordColumns(months, gigs.clientId),
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .innerJoin(users, eq(users.id, gigs.clientId))
    .leftJoin(clientRecords, eq(clientRecords.clientId, gigs.clientId))
    .leftJoinLateral(months, sql`true`)
    // A deleted account's gigs leave the site with it, and so does a gig its client deleted.
    .where(and(eq(gigs.id, id), isNull(users.deletedAt), isNull(gigs.deletedAt)));
  if (!row || (!row.published && row.clientId !== viewerId)) return null;
  const { clientId, withdrawn, hiddenReason, notForSale, record, hasPhone, phoneVerified, ...gig } = row;
  return {
    gig: { ...gig, createdAt: gig.createdAt.toISOString(), leadPriceCents: leadPriceCents(gig.budgetMinCents) },
    /** For permission checks on the server; never sent to the browser. */
    ownerId: clientId,
    /** Hidden by an operator (with the operator's reason), or its owner suspended: only the owner, the lead's buyers and operators may see it. */
    withdrawn: withdrawn ? { hiddenReason } : null,
    notForSale,
    clientRecord: clientRecordLines(record),
    /** Published, shown, not withdrawn reviews from diggers: none, and the section needs no query. */
    reviewCount: record.reviewCount,
    reviewAverage: record.reviewAverage,
    hasPhone,
    phoneVerified,
  };
}

/** /gig/{id}: the gig as its viewer may see it (an operator by the console's rule, two-factor in production). */
export const viewGig = defineOperation({
  access: anyone,
  async run({ services: { db, config }, user, params, url }) {
    const viewer = user && { ...user, operator: actsAsOperator(config, user) };
    const page = await gigPage(db, params.id ?? "", viewer, readerTime(user?.timeZone, config), phoneVerificationOn(config), url.searchParams.get("cursor"));
    // A signed-in reader may report a client review; ?report={reviewId}: that review's Report
    // form is open (the Report link, without JavaScript).
    return { ...page, reviewReport: user ? { open: url.searchParams.get("report") } : null };
  },
});
