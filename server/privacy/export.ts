/**
 * Download my data (spec section 1: data portability): everything held about one user, as
 * JSON. Every query is keyed by the user's own id (or their digger profile's), and rows
 * that involve someone else carry only what the user already sees of them on the site.
 * Secrets are left out: password hashes, session and OAuth tokens, two-factor secrets, and
 * the one-time and signed parts of the links in e-mails (`exportedEmailText`), and a phone code's
 * hash and the provider's id of its text (issue 49: the number and when a code was sent are given).
 */
import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull } from "drizzle-orm";
import { reviewerName } from "#core/reviews.ts";
import { leadAlertPreferences } from "../alerts/settings.ts";
import { PROOF_COLUMNS } from "../diggers/credential-documents.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { signedIn, withRequest } from "../guards.ts";
import { purchaseSummary, withPurchaseParties } from "../leads/purchase-parties.ts";
import { exportedThreads } from "../conversations/privacy.ts";
import { defineOperation } from "../operation.ts";
import { threadQuotes } from "../conversations/thread-quotes.ts";
import { reachPreferencesOf } from "../reach/preferences.ts";
import {
  accounts,
  categories,
  clientReviews,
  credentialDocuments,
  diggerCategories,
  diggerProfiles,
  diggerReferences,
  emails,
  gigs,
  hires,
  leadIssues,
  leadPurchases,
  operatorActions,
  phoneCodes,
  phoneVerifications,
  referenceContactRequests,
  refunds,
  reviews,
  users,
} from "../db/schema.ts";

const EXPORT_FORMAT = "digs-and-gigs-account-export/1";

const issueColumns = {
  id: leadIssues.id,
  issueType: leadIssues.issueType,
  description: leadIssues.description,
  refundPercentage: leadIssues.refundPercentage,
  status: leadIssues.status,
  createdAt: leadIssues.createdAt,
  resolvedAt: leadIssues.resolvedAt,
};

/** The profile as its owner entered it; the search column is only a derived copy. */
const { searchText: _derived, ...profileColumns } = getTableColumns(diggerProfiles);

/** A link's query string or fragment: where our links carry their tokens. */
const LINK_TAIL = /(https?:\/\/[^\s?#]+)[?#]\S*/gi;

/**
 * An e-mail's text as the export shows it: every link keeps its address up to the path, never
 * its query or fragment, where the tokens of reset, confirmation and unsubscribe links live. A
 * stolen session must not turn an export into a live password-reset link (issue 30).
 */
function exportedEmailText(text: string): string {
  return text.replace(LINK_TAIL, "$1[…]");
}

export async function exportUserData(db: Database, userId: string) {
  const [account] = await db
    .select({
      id: users.id,
      fullName: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      userType: users.userType,
      twoFactorEnabled: users.twoFactorEnabled,
      promotionalEmail: users.promotionalEmail,
      /** The account's number to reuse (issue 49), E.164. */
      phone: users.phone,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!account) throw new AppError("not_found", "Not found");

  const [signInMethods, profile, ownGigs, made, sentEmails, actionsAboutMe, verifiedPhones, waitingCode] = await Promise.all([
    db
      .select({ provider: accounts.providerId, createdAt: accounts.createdAt })
      .from(accounts)
      .where(eq(accounts.userId, userId))
      .orderBy(asc(accounts.createdAt)),
    db.select(profileColumns).from(diggerProfiles).where(eq(diggerProfiles.userId, userId)),
    db
      .select({
        id: gigs.id,
        title: gigs.title,
        description: gigs.description,
        location: gigs.location,
        timeline: gigs.timeline,
        budgetMinCents: gigs.budgetMinCents,
        budgetMaxCents: gigs.budgetMaxCents,
        category: categories.name,
        deadline: gigs.deadline,
        contactPreferences: gigs.contactPreferences,
        contactPhone: gigs.contactPhone,
        phoneVerifiedAt: gigs.phoneVerifiedAt,
        status: gigs.status,
        purchaseCount: gigs.purchaseCount,
        createdAt: gigs.createdAt,
        updatedAt: gigs.updatedAt,
      })
      .from(gigs)
      .innerJoin(categories, eq(categories.id, gigs.categoryId))
      .where(eq(gigs.clientId, userId))
      .orderBy(desc(gigs.createdAt)),
    db
      .select({
        id: referenceContactRequests.id,
        diggerId: referenceContactRequests.diggerId,
        diggerHandle: diggerProfiles.handle,
        referenceName: diggerReferences.referenceName,
        status: referenceContactRequests.status,
        createdAt: referenceContactRequests.createdAt,
        resolvedAt: referenceContactRequests.resolvedAt,
      })
      .from(referenceContactRequests)
      .innerJoin(diggerReferences, eq(diggerReferences.id, referenceContactRequests.referenceId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, referenceContactRequests.diggerId))
      .where(eq(referenceContactRequests.clientId, userId))
      .orderBy(desc(referenceContactRequests.createdAt)),
    db
      .select({
        id: emails.id,
        to: emails.toAddress,
        subject: emails.subject,
        text: emails.textBody,
        kind: emails.kind,
        status: emails.status,
        createdAt: emails.createdAt,
        sentAt: emails.sentAt,
      })
      .from(emails)
      .where(eq(emails.userId, userId))
      .orderBy(desc(emails.createdAt)),
    // What operators did about the account (issue 22): what, why and when; not which operator.
    db
      .select({ action: operatorActions.action, subjectType: operatorActions.subjectType, subjectId: operatorActions.subjectId, reason: operatorActions.reason, createdAt: operatorActions.createdAt })
      .from(operatorActions)
      .where(eq(operatorActions.subjectUserId, userId))
      .orderBy(desc(operatorActions.createdAt), desc(operatorActions.seq)),
    // The numbers the account proved it receives texts at, and when (issue 49).
    db
      .select({ phone: phoneVerifications.phone, verifiedAt: phoneVerifications.verifiedAt })
      .from(phoneVerifications)
      .where(eq(phoneVerifications.userId, userId))
      .orderBy(asc(phoneVerifications.verifiedAt), asc(phoneVerifications.phone)),
    // The code waiting for an answer: its number and times, never the code's hash nor the provider's id of the text.
    db
      .select({ phone: phoneCodes.phone, sentAt: phoneCodes.sentAt, expiresAt: phoneCodes.expiresAt })
      .from(phoneCodes)
      .where(eq(phoneCodes.userId, userId)),
  ]);

  const gigIds = ownGigs.map((g) => g.id);
  const issuesOnMyGigs =
    gigIds.length === 0
      ? []
      : await db
          .select({ ...issueColumns, gigId: leadPurchases.gigId, amountPaidCents: leadPurchases.amountPaidCents })
          .from(leadIssues)
          .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
          .where(inArray(leadPurchases.gigId, gigIds))
          .orderBy(desc(leadIssues.createdAt));

  const digger = profile[0] ? await diggerSection(db, profile[0]) : null;
  const trust = await trustSection(db, userId, gigIds, profile[0]?.id ?? null);
  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date().toISOString(),
    /** How to reach me (issue 34): the E-mail and Push choice of each group of events. */
    account: {
      ...account,
      signInMethods,
      howToReachMe: await reachPreferencesOf(db, userId),
      /** Verified phone numbers (issue 49): each number and when it was verified; the code sent last, if one is waiting. */
      verifiedPhones,
      phoneCodeWaiting: waitingCode[0] ?? null,
    },
    diggerProfile: digger?.profile ?? null,
    gigs: ownGigs,
    /** Leads bought as a digger, each with its refunds. */
    purchases: digger?.purchases ?? [],
    issues: { reported: digger?.issuesReported ?? [], onMyGigs: issuesOnMyGigs },
    referenceContactRequests: { made, received: profile[0] ? await requestsReceived(db, profile[0].id) : [] },
    /** Reviews and hires: written on my gigs as a client, received on my profile as a digger. */
    reviews: trust.reviews,
    /** Reviews of clients (issue 51): written as a digger, received as a client once published. */
    clientReviews: trust.clientReviews,
    hires: trust.hires,
    emails: sentEmails.map((email) => ({ ...email, text: exportedEmailText(email.text) })),
    /** Operator actions about the account (suspensions, hidden gigs, verified credentials...), without the operator's identity. */
    operatorActions: actionsAboutMe,
    /**
     * Conversations (issue 32): each thread with the other party as shown there, every message,
     * and its quotes (issue 33), every version, as the cards show them.
     */
    threads: await Promise.all((await exportedThreads(db, userId)).map(async (thread) => ({ ...thread, quotes: await threadQuotes(db, userId, thread.id) }))),
  };
}

export type UserDataExport = Awaited<ReturnType<typeof exportUserData>>;

/** /account/data, Download my data: the signed-in user's data as a JSON file. */
export const downloadAccountData = defineOperation({
  access: withRequest(signedIn({ signedOut: { message: "Please sign in to download your data" } })),
  async run({ services: { db }, user, logger }): Promise<Response> {
    const exported = await exportUserData(db, user.id);
    logger.info({ userId: user.id }, "account data exported");
    return new Response(JSON.stringify(exported, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="digs-and-gigs-data-${exported.exportedAt.slice(0, 10)}.json"`,
        "Cache-Control": "private, no-store",
      },
    });
  },
});

type DiggerProfileRow = Omit<typeof diggerProfiles.$inferSelect, "searchText">;

/** The profile with its categories and references, and the leads bought, their issues and refunds. */
async function diggerSection(db: Database, profile: DiggerProfileRow) {
  const { userId: _userId, hiddenAt: _hiddenAt, ...fields } = profile;
  const [categoryNames, references, purchases, issues, credentialProofs] = await Promise.all([
    db
      .select({ name: categories.name })
      .from(diggerCategories)
      .innerJoin(categories, eq(categories.id, diggerCategories.categoryId))
      .where(eq(diggerCategories.diggerId, profile.id))
      .orderBy(asc(categories.name)),
    db
      .select({
        id: diggerReferences.id,
        name: diggerReferences.referenceName,
        email: diggerReferences.referenceEmail,
        phone: diggerReferences.referencePhone,
        projectDescription: diggerReferences.projectDescription,
        isVerified: diggerReferences.isVerified,
        createdAt: diggerReferences.createdAt,
      })
      .from(diggerReferences)
      .where(eq(diggerReferences.diggerId, profile.id))
      .orderBy(asc(diggerReferences.createdAt)),
    withPurchaseParties(
      db
        .select({ ...purchaseSummary, provider: leadPurchases.provider, purchasedAt: leadPurchases.purchasedAt })
        .from(leadPurchases)
        .$dynamic(),
    )
      .where(eq(leadPurchases.diggerId, profile.id))
      .orderBy(desc(leadPurchases.createdAt)),
    db
      .select({ ...issueColumns, leadPurchaseId: leadIssues.leadPurchaseId })
      .from(leadIssues)
      .where(eq(leadIssues.diggerId, profile.id))
      .orderBy(desc(leadIssues.createdAt)),
    // The proofs' details and decisions; the files themselves are downloaded from the profile editing page.
    db
      .select(PROOF_COLUMNS)
      .from(credentialDocuments)
      .where(eq(credentialDocuments.diggerId, profile.id))
      .orderBy(desc(credentialDocuments.createdAt)),
  ]);
  const purchaseIds = purchases.map((p) => p.id);
  const purchaseRefunds =
    purchaseIds.length === 0
      ? []
      : await db
          .select({
            id: refunds.id,
            leadPurchaseId: refunds.leadPurchaseId,
            reason: refunds.reason,
            amountCents: refunds.amountCents,
            status: refunds.status,
            createdAt: refunds.createdAt,
            completedAt: refunds.completedAt,
          })
          .from(refunds)
          .where(inArray(refunds.leadPurchaseId, purchaseIds))
          .orderBy(asc(refunds.createdAt));
  return {
    profile: { ...fields, categories: categoryNames.map((c) => c.name), references, credentialProofs },
    leadAlerts: await leadAlertPreferences(db, profile.id),
    purchases: purchases.map((p) => ({ ...p, refunds: purchaseRefunds.filter((r) => r.leadPurchaseId === p.id) })),
    issuesReported: issues,
  };
}

/**
 * Reviews and hires the user gave (on their gigs) and received (on their digger profile); a
 * reviewer as the profile shows them (first name, last initial), the digger by handle. Both ways
 * (issue 51): what the user wrote, all of it; what they received, only once it is published (a
 * review still blind in its hire's window is its writer's alone), and of a client's, not hidden.
 */
async function trustSection(db: Database, userId: string, gigIds: string[], diggerId: string | null) {
  const reviewColumns = {
    id: reviews.id,
    gigId: reviews.gigId,
    rating: reviews.rating,
    body: reviews.body,
    reply: reviews.reply,
    createdAt: reviews.createdAt,
    updatedAt: reviews.updatedAt,
    publishedAt: reviews.publishedAt,
    repliedAt: reviews.repliedAt,
  };
  const c = clientReviews;
  const clientReviewColumns = {
    id: c.id,
    gigId: c.gigId,
    rating: c.rating,
    body: c.body,
    asDescribed: c.asDescribed,
    easyToReach: c.easyToReach,
    paidAsAgreed: c.paidAsAgreed,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    publishedAt: c.publishedAt,
  };
  const none = Promise.resolve([]);
  const [written, received, made, got, clientWritten, clientReceived] = await Promise.all([
    gigIds.length === 0
      ? none
      : db.select({ ...reviewColumns, diggerHandle: diggerProfiles.handle }).from(reviews).innerJoin(diggerProfiles, eq(diggerProfiles.id, reviews.diggerId)).where(inArray(reviews.gigId, gigIds)).orderBy(desc(reviews.createdAt)),
    diggerId === null
      ? none
      : db
          .select({ ...reviewColumns, reviewerName: users.name })
          .from(reviews)
          .innerJoin(gigs, eq(gigs.id, reviews.gigId))
          .innerJoin(users, eq(users.id, gigs.clientId))
          .where(and(eq(reviews.diggerId, diggerId), isNotNull(reviews.publishedAt)))
          .orderBy(desc(reviews.createdAt)),
    gigIds.length === 0
      ? none
      : db.select({ gigId: hires.gigId, diggerHandle: diggerProfiles.handle, createdAt: hires.createdAt }).from(hires).innerJoin(diggerProfiles, eq(diggerProfiles.id, hires.diggerId)).where(inArray(hires.gigId, gigIds)).orderBy(desc(hires.createdAt)),
    diggerId === null ? none : db.select({ gigId: hires.gigId, createdAt: hires.createdAt }).from(hires).where(eq(hires.diggerId, diggerId)).orderBy(desc(hires.createdAt)),
    diggerId === null ? none : db.select(clientReviewColumns).from(c).where(eq(c.diggerId, diggerId)).orderBy(desc(c.createdAt)),
    db
      .select({ ...clientReviewColumns, diggerHandle: diggerProfiles.handle })
      .from(c)
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, c.diggerId))
      .where(and(eq(c.clientId, userId), isNotNull(c.publishedAt), isNull(c.hiddenAt)))
      .orderBy(desc(c.createdAt)),
  ]);
  return {
    reviews: { written, received: received.map(({ reviewerName: name, ...review }) => ({ ...review, reviewer: reviewerName(name) })) },
    clientReviews: { written: clientWritten, received: clientReceived },
    hires: { made, received: got },
  };
}

/** Requests for this digger's references: who asked (their name, as /reference-requests shows it). */
function requestsReceived(db: Database, diggerId: string) {
  return db
    .select({
      id: referenceContactRequests.id,
      referenceName: diggerReferences.referenceName,
      requestedBy: users.name,
      status: referenceContactRequests.status,
      createdAt: referenceContactRequests.createdAt,
      resolvedAt: referenceContactRequests.resolvedAt,
    })
    .from(referenceContactRequests)
    .innerJoin(diggerReferences, eq(diggerReferences.id, referenceContactRequests.referenceId))
    .innerJoin(users, eq(users.id, referenceContactRequests.clientId))
    .where(eq(referenceContactRequests.diggerId, diggerId))
    .orderBy(desc(referenceContactRequests.createdAt));
}
