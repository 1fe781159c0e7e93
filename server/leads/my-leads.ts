/**
 * /my-leads: the signed-in digger's completed purchases with the client's contact details
 * (spec sections 2, 4, 8; design.md section 6). Only the digger who owns a completed purchase
 * ever sees its client. Reporting an issue on one of them is in report-issue.ts.
 */
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { leadGuaranteeTexts, type GuaranteeLine, type LeadGuaranteeFacts, type LeadGuaranteeTexts } from "#core/lead-guarantee.ts";
import { LEDGER_DAYS, type LeadLedger, type LedgerTotals } from "#core/lead-ledger.ts";
import { GUARANTEE_WRITE_HOURS } from "#core/reply-guarantee.ts";
import { visitBookedLine } from "#core/visits.ts";
import { phoneStatus, type PhoneStatus } from "#core/phone-verification.ts";
import { firstNameOrHandle } from "#core/messages.ts";
import { waitingForOtherText, type ClientReviewEntry } from "#core/two-way-reviews.ts";
import {
  decideByText,
  ISSUE_DEADLINE_DEFAULTS,
  ISSUE_MESSAGES,
  leadStateFilter,
  reportWindowClosedText,
  WRONG_PHONE,
  type LeadCardLead,
  type LeadState,
  type MyLead,
  type MyLeadTimes,
} from "#core/lead-issues.ts";
import type { Database } from "../db/client.ts";
import { placeholder, preparedQuery, preparedRows } from "../db/prepared.ts";
import { clientReviews, gigs, hires, leadIssues, leadPurchases, quotes, refunds, reviewWindows, threads, visits } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { clientUser, withGigAndClient } from "./purchase-parties.ts";
import { evidenceColumns } from "./thread-evidence.ts";
import { MY_LEADS_ACCESS } from "./access.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import type { Config } from "../config.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { displayPhone } from "../phones/parse-phone.ts";
import { phoneVerifiedText } from "./phone-verified-text.ts";

/** The purchase's refund by the reply guarantee (at most one: refunds_reply_guarantee_key). */
const guaranteeRefund = alias(refunds, "guarantee_refund");

/**
 * Where the lead of purchase row `p` stands (core/lead-issues.ts `LEAD_STATES`), in the query
 * that joins its gig, its issue and the issue's refund, its refund by the reply guarantee and
 * its thread: the first that holds. A refund by the guarantee counts like an issue's.
 */
const leadState = (p: typeof leadPurchases) => sql<LeadState>`case
  when exists (select 1 from ${hires} where ${hires.gigId} = ${p.gigId} and ${hires.diggerId} = ${p.diggerId}) then 'hired'
  when ${refunds.status} = 'succeeded' or ${guaranteeRefund.status} = 'succeeded' then 'refunded'
  when ${leadIssues.status} = 'approved' or ${guaranteeRefund.id} is not null then 'refund_pending'
  when ${gigs.filledAt} is not null then 'filled'
  when exists (select 1 from ${quotes} where ${quotes.threadId} = ${threads.id} and ${quotes.status} = 'not_chosen')
    or exists (select 1 from ${quotes} where ${quotes.gigId} = ${p.gigId} and ${quotes.status} = 'accepted' and ${quotes.diggerId} <> ${p.diggerId})
    or (${gigs.hired} and not ${gigs.openForMore}) then 'not_chosen'
  else 'active'
end`;

/**
 * The digger's review of the lead's client (issue 51), from the lead's review window and the
 * review joined by their keys: 'open' while the window runs and nothing is written, 'waiting'
 * once written and not yet shown, 'published' once shown; null otherwise, and for a lead the
 * client has deleted their account on or refunded in full (the refund withdraws the review).
 */
const clientReviewState = (p: typeof leadPurchases) => sql<ClientReviewEntry["state"] | null>`case
  when ${clientReviews.id} is null and ${reviewWindows.gigId} is null then null
  when ${clientUser.deletedAt} is not null or purchase_fully_refunded(${p.id}) then null
  when ${clientReviews.id} is null then case when ${reviewWindows.endsAt} > now() and ${reviewWindows.closedAt} is null then 'open' end
  when ${clientReviews.publishedAt} is null then 'waiting'
  else 'published'
end`;

/** The end of the reply guarantee's GUARANTEE_WRITE_HOURS to write in (issue 48). */
const writeBy = (p: typeof leadPurchases) => sql`(${p.purchasedAt} + make_interval(hours => ${GUARANTEE_WRITE_HOURS}::int))`;

/**
 * What the lead card says of the reply guarantee (core/lead-guarantee.ts `GuaranteeLine`), in the
 * same query: its outcome once settled (answered and skipped say nothing); covered and waiting
 * while the client has neither opened nor answered the thread; not covered when the first answer
 * came later than 24 hours after buying or not at all; still time to write. A purchase from
 * before the guarantee whose digger wrote in time says nothing.
 */
const guaranteeLine = (p: typeof leadPurchases) => sql<GuaranteeLine | null>`case
  when ${p.guaranteeOutcome} in ('refunded', 'escalated', 'declined') then ${p.guaranteeOutcome}
  when ${guaranteeRefund.id} is not null then 'refunded'
  when ${p.guaranteeOutcome} is not null then null
  when ${p.guaranteeDueAt} is not null then case when ${threads.clientOpenedAt} is null and ${threads.clientFirstReplyAt} is null then 'covered' end
  when ${threads.diggerFirstAt} > ${writeBy(p)} then 'not_covered'
  when ${threads.diggerFirstAt} is null then case when ${writeBy(p)} <= now() then 'not_covered' else 'write' end
end`;

/**
 * The next visit of the thread joined as `threads` (issue 50): booked and its window not yet
 * closed, the soonest; one step down the thread's index (visits_thread_idx) per lead.
 */
function nextVisitOf(db: Database) {
  return db
    .select({ startsAt: exactTimestamp(visits.startsAt).as("next_visit_starts_at"), windowMinutes: sql<number>`${visits.windowMinutes}`.as("next_visit_window") })
    .from(visits)
    .where(and(eq(visits.threadId, threads.id), eq(visits.status, "booked"), gt(visits.endsAt, sql`now()`)))
    .orderBy(asc(visits.startsAt))
    .limit(1)
    .as("next_visit");
}

/** A lead's card on /my-leads: the lead as it shows it, and its texts. */
export interface LeadCardData {
  lead: LeadCardLead;
  times: MyLeadTimes;
  guarantee: LeadGuaranteeTexts;
  phoneStatus: PhoneStatus | null;
  review: ClientReviewEntry | null;
}

/**
 * A lead as /my-leads lists it, with what its card says of the reply guarantee, whether the
 * gig's phone is verified now (issue 49: the tick beside the number), and its thread's next
 * booked visit (issue 50).
 */
export type MyLeadItem = MyLead & {
  guarantee: LeadGuaranteeFacts;
  phoneVerified: boolean;
  nextVisit: { startsAt: string; windowMinutes: number } | null;
  /** The digger's review of the client (issue 51) and the end of the lead's review window. */
  clientReview: { state: ClientReviewEntry["state"]; windowEndsAt: string | null } | null;
};

/**
 * The page's statement (server/db/prepared.ts: built once per shape, with or without a cursor and
 * a state): a digger's completed purchases, newest purchased_at first, each with where it stands,
 * and when its report window (`reportDays` after the purchase) closes and whether it has, by the
 * database's clock.
 */
const myLeadsRows = preparedQuery("my_leads", (db, shape: { cursor: boolean; state: boolean }) => {
  const p = leadPurchases;
  const stateOf = leadState(p);
  const closesAt = sql`(${p.purchasedAt} + make_interval(days => ${placeholder("reportDays")}::int))`;
  const nextVisit = nextVisitOf(db);
  return withGigAndClient(
    db
      .select({
        id: p.id,
        amountPaidCents: p.amountPaidCents,
        purchasedAt: exactTimestamp(p.purchasedAt),
        state: stateOf,
        gig: {
          id: gigs.id,
          title: gigs.title,
          description: gigs.description,
          budgetMinCents: gigs.budgetMinCents,
          budgetMaxCents: gigs.budgetMaxCents,
          location: gigs.location,
          timeline: gigs.timeline,
          contactPreferences: gigs.contactPreferences,
          contactPhone: gigs.contactPhone,
          filled: sql<boolean>`${gigs.filledAt} is not null`,
        },
        client: { name: clientUser.name, email: clientUser.email, deleted: sql<boolean>`${clientUser.deletedAt} is not null` },
        reportClosesAt: exactTimestamp(closesAt),
        reportClosed: sql<boolean>`${closesAt} <= now()`,
        issueId: leadIssues.id,
        issueStatus: leadIssues.status,
        // Once the issue went to the operators (decision 0031), their deadline is the one that binds.
        issueRespondBy: exactTimestamp(sql`coalesce(${leadIssues.operatorRespondBy}, ${leadIssues.respondBy})`),
        issueDecidedBy: leadIssues.decidedBy,
        issueType: leadIssues.issueType,
        refundAmountCents: refunds.amountCents,
        refundSucceeded: sql<boolean>`${refunds.status} = 'succeeded'`,
        threadId: threads.id,
        phoneVerified: sql<boolean>`${gigs.phoneVerifiedAt} is not null`,
        // Verified when bought: else a Wrong Phone Number report is approved at once (report-issue.ts).
        phoneVerifiedAtPurchase: exactTimestamp(sql`${p.phoneVerifiedAt}`),
        guaranteeRefundCents: guaranteeRefund.amountCents,
        guaranteeRefundSucceeded: sql<boolean>`${guaranteeRefund.status} = 'succeeded'`,
        guaranteeLine: guaranteeLine(p),
        guaranteeDueAt: exactTimestamp(p.guaranteeDueAt),
        writeBy: exactTimestamp(writeBy(p)),
        // The thread's evidence (leads/thread-evidence.ts), beside the guarantee's line.
        evidencePurchasedAt: evidenceColumns.purchasedAt,
        diggerFirstAt: evidenceColumns.diggerFirstAt,
        clientOpenedAt: evidenceColumns.clientOpenedAt,
        diggerMessages: evidenceColumns.diggerMessages,
        clientMessages: evidenceColumns.clientMessages,
        nextVisitStartsAt: nextVisit.startsAt,
        nextVisitWindow: nextVisit.windowMinutes,
        clientReviewState: clientReviewState(p),
        reviewWindowEndsAt: exactTimestamp(reviewWindows.endsAt),
      })
      .from(p)
      .leftJoin(leadIssues, eq(leadIssues.leadPurchaseId, p.id))
      .leftJoin(refunds, eq(refunds.leadIssueId, leadIssues.id))
      .leftJoin(guaranteeRefund, and(eq(guaranteeRefund.leadPurchaseId, p.id), eq(guaranteeRefund.reason, "reply_guarantee")))
      .leftJoin(threads, eq(threads.purchaseId, p.id))
      .leftJoinLateral(nextVisit, sql`true`)
      // Issue 51: each by its key (review_windows' primary key, client_reviews_gig_digger_key).
      .leftJoin(reviewWindows, and(eq(reviewWindows.gigId, p.gigId), eq(reviewWindows.diggerId, p.diggerId)))
      .leftJoin(clientReviews, and(eq(clientReviews.gigId, p.gigId), eq(clientReviews.diggerId, p.diggerId)))
      .$dynamic(),
  )
    .where(
      and(
        eq(p.diggerId, placeholder("diggerId")),
        eq(p.status, "completed"),
        shape.state ? sql`${stateOf} = ${placeholder("state")}` : undefined,
        shape.cursor ? sql`(${p.purchasedAt}, ${p.id}) < (${placeholder("afterAt")}::timestamptz, ${placeholder("afterId")}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(p.purchasedAt), desc(p.id))
    .limit(placeholder("limit"));
});

/**
 * One page of a digger's completed purchases (only those in `state` when given): `myLeadsRows`
 * from `cursor`.
 */
export async function listMyLeads(
  db: Database,
  diggerId: string,
  cursor: string | null,
  size = PAGE_SIZE,
  reportDays: number = ISSUE_DEADLINE_DEFAULTS.reportDays,
  state: LeadState | null = null,
): Promise<Page<MyLeadItem>> {
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const rows = await myLeadsRows(
    db,
    { cursor: after !== null, state: state !== null },
    { diggerId, reportDays, state, afterAt: after?.[0], afterId: after?.[1], limit: size + 1 },
  );
  const page = toPage(rows, size, (row) => [row.purchasedAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    // Each field named, not `{ ...row, refund, issue }` (decision 0066: a new hidden class a lead).
    items: page.items.map((row) => ({
      id: row.id,
      state: row.state,
      amountPaidCents: row.amountPaidCents,
      purchasedAt: row.purchasedAt,
      // The number as people write it ('+1 512 555 0123'; a free-text one of before as typed).
      gig: {
        id: row.gig.id,
        title: row.gig.title,
        description: row.gig.description,
        budgetMinCents: row.gig.budgetMinCents,
        budgetMaxCents: row.gig.budgetMaxCents,
        location: row.gig.location,
        timeline: row.gig.timeline,
        contactPreferences: row.gig.contactPreferences,
        contactPhone: row.gig.contactPhone === null ? null : displayPhone(row.gig.contactPhone),
        filled: row.gig.filled,
      },
      client: row.client,
      reportClosesAt: row.reportClosesAt,
      reportClosed: row.reportClosed,
      threadId: row.threadId,
      phoneVerified: row.phoneVerified,
      phoneVerifiedAtPurchase: row.phoneVerifiedAtPurchase,
      nextVisit: row.nextVisitStartsAt === null ? null : { startsAt: row.nextVisitStartsAt, windowMinutes: Number(row.nextVisitWindow) },
      clientReview: row.clientReviewState === null ? null : { state: row.clientReviewState, windowEndsAt: row.reviewWindowEndsAt },
      // An issue's refund, else the reply guarantee's (never both in full: refundableCents).
      refund:
        row.refundAmountCents !== null
          ? { amountCents: row.refundAmountCents, succeeded: row.refundSucceeded }
          : row.guaranteeRefundCents !== null
            ? { amountCents: row.guaranteeRefundCents, succeeded: row.guaranteeRefundSucceeded }
            : null,
      issue:
        row.issueId && row.issueStatus
          ? { id: row.issueId, type: row.issueType!, status: row.issueStatus, respondBy: row.issueRespondBy, decidedBy: row.issueDecidedBy }
          : null,
      guarantee: {
        line: row.guaranteeLine,
        dueAt: row.guaranteeDueAt,
        writeBy: row.writeBy,
        evidence:
          row.threadId && row.evidencePurchasedAt && row.diggerMessages !== null && row.clientMessages !== null
            ? {
                purchasedAt: row.evidencePurchasedAt,
                diggerFirstAt: row.diggerFirstAt,
                clientOpenedAt: row.clientOpenedAt,
                diggerMessages: row.diggerMessages,
                clientMessages: row.clientMessages,
              }
            : null,
      },
    })),
  };
}

/** The ledger's one statement (leadLedger), prepared. */
const ledgerRow = preparedRows<Record<string, string | number>>("lead_ledger", () => {
  const p = leadPurchases;
  const r = refunds;
  const since = sql`now() - make_interval(days => ${LEDGER_DAYS}::int)`;
  return sql`
      select
        count(*) filter (where ${p.purchasedAt} > ${since}) as "leads30",
        count(*) as "leadsAll",
        coalesce(sum(${p.amountPaidCents}) filter (where ${p.purchasedAt} > ${since}), 0) as "spent30",
        coalesce(sum(${p.amountPaidCents}), 0) as "spentAll",
        coalesce(sum(back.recent), 0) as "refunded30",
        coalesce(sum(back.total), 0) as "refundedAll",
        count(*) filter (where back.guarantee_recent is not null) as "guarantees30",
        count(*) filter (where back.guarantee_total is not null) as "guaranteesAll",
        coalesce(sum(back.guarantee_recent), 0) as "guaranteeCents30",
        coalesce(sum(back.guarantee_total), 0) as "guaranteeCentsAll",
        (select count(*) filter (where q.created_at > ${since}) from quotes q where q.digger_id = ${placeholder("diggerId")} and q.replaces_id is null) as "sent30",
        (select count(*) from quotes q where q.digger_id = ${placeholder("diggerId")} and q.replaces_id is null) as "sentAll",
        (select count(*) filter (where q.decided_at > ${since}) from quotes q where q.digger_id = ${placeholder("diggerId")} and q.status = 'accepted') as "accepted30",
        (select count(*) from quotes q where q.digger_id = ${placeholder("diggerId")} and q.status = 'accepted') as "acceptedAll",
        (select count(*) filter (where h.created_at > ${since}) from hires h where h.digger_id = ${placeholder("diggerId")}) as "hires30",
        (select count(*) from hires h where h.digger_id = ${placeholder("diggerId")}) as "hiresAll"
      from ${p}
      left join lateral (
        select
          sum(${r.amountCents}) filter (where ${r.completedAt} > ${since}) as recent,
          sum(${r.amountCents}) as total,
          sum(${r.amountCents}) filter (where ${r.reason} = 'reply_guarantee' and ${r.completedAt} > ${since}) as guarantee_recent,
          sum(${r.amountCents}) filter (where ${r.reason} = 'reply_guarantee') as guarantee_total
        from ${r}
        where ${r.leadPurchaseId} = ${p.id} and ${r.status} = 'succeeded'
      ) back on true
      where ${p.diggerId} = ${placeholder("diggerId")} and ${p.status} = 'completed'
    `;
});

/**
 * The ledger of digger `diggerId`, for the last 30 days and all time, in one query over the
 * digger's index (lead_purchases_digger_idx) and each purchase's refunds (refunds_purchase_idx):
 * completed purchases (count and amount paid, by purchased_at) and the succeeded refunds of
 * those purchases (by completed_at: when the money came back). Pending refunds are not counted
 * until the provider confirms them; refunds of payments that never became a lead (a duplicate
 * payment, a lead no longer available) belong to cancelled purchases, neither spent nor refunded.
 * Of the refunds, those of the reply guarantee (issue 48; at most one per purchase) are also
 * counted apart: how many and how much.
 * With them, the digger's quote numbers (issue 33): quotes sent (revisions are the same quote, by
 * created_at), accepted (by decided_at), hires (by created_at) and net spent per hire.
 */
export async function leadLedger(db: Database, diggerId: string): Promise<LeadLedger> {
  const [row] = await ledgerRow(db, undefined, { diggerId });
  const totals = (period: "30" | "All"): LedgerTotals => {
    const figure = (name: string) => Number(row?.[`${name}${period}`] ?? 0);
    const netCents = figure("spent") - figure("refunded");
    const hired = figure("hires");
    return {
      leadsBought: figure("leads"),
      spentCents: figure("spent"),
      refundedCents: figure("refunded"),
      guaranteeRefunds: figure("guarantees"),
      guaranteeRefundedCents: figure("guaranteeCents"),
      netCents,
      quotesSent: figure("sent"),
      quotesAccepted: figure("accepted"),
      hires: hired,
      netPerHireCents: hired > 0 ? Math.round(netCents / hired) : null,
    };
  };
  return { last30Days: totals("30"), allTime: totals("All") };
}

/**
 * The page /my-leads of digger `diggerId` from `cursor` (only the leads in `state` when given):
 * each lead's card (what it shows, written in the reader's zone), with the ledger. A database fault is not wrapped: it reaches the error handling that answers
 * 503 when the database is away, and the page's error boundary says 'Failed to load leads'.
 */
async function myLeadsPage(
  { db, config }: { db: Database; config: Pick<Config, "leadIssueReportDays" | "sms"> },
  diggerId: string,
  cursor: string | null,
  state: LeadState | null,
  time: ReaderTime,
): Promise<{ cards: LeadCardData[]; nextCursor: string | null; ledger: LeadLedger; state: LeadState | null }> {
  const [page, ledger] = await Promise.all([
    listMyLeads(db, diggerId, cursor, PAGE_SIZE, config.leadIssueReportDays, state),
    leadLedger(db, diggerId),
  ]);
  const verificationOn = phoneVerificationOn(config);
  const cards = page.items.map((lead): LeadCardData => {
    const { gig, issue } = lead;
    return {
      lead: {
        id: lead.id,
        state: lead.state,
        amountPaidCents: lead.amountPaidCents,
        threadId: lead.threadId,
        gig: {
          title: gig.title,
          description: gig.description,
          budgetMinCents: gig.budgetMinCents,
          budgetMaxCents: gig.budgetMaxCents,
          location: gig.location,
          timeline: gig.timeline,
          contactPreferences: gig.contactPreferences,
          contactPhone: gig.contactPhone,
        },
        client: lead.client,
        issue: issue ? { status: issue.status, decidedBy: issue.decidedBy } : null,
        refund: lead.refund,
      },
      times: {
        purchased: time.date(lead.purchasedAt),
        reportClosed: lead.reportClosed ? reportWindowClosedText(time.date(lead.reportClosesAt)) : null,
        // A fake request is the operators' to decide, never its client's (issue 48).
        decideBy: issue?.status !== "pending" ? null : issue.type === "fake_request" ? ISSUE_MESSAGES.fakePending : decideByText(time.deadline(issue.respondBy)),
        phoneVerifiedOn: phoneVerifiedText(verificationOn, WRONG_PHONE, lead.phoneVerifiedAtPurchase, time),
        visitBooked: lead.nextVisit ? visitBookedLine(time.visitWindow(lead.nextVisit.startsAt, lead.nextVisit.windowMinutes)) : null,
      },
      guarantee: leadGuaranteeTexts(lead.guarantee, time),
      // 'Phone verified' or 'Phone not verified' beside the number, from the gig's phone as it is now.
      phoneStatus: phoneStatus(verificationOn, gig.contactPhone !== null, lead.phoneVerified),
      // Review {first name} and what follows it (issue 51).
      review: lead.clientReview ? clientReviewEntry(lead, lead.clientReview, time) : null,
    };
  });
  return { cards, nextCursor: page.nextCursor, ledger, state };
}

/** A lead card's Review {first name}, with the waiting line while the digger's review is not yet shown. */
function clientReviewEntry(lead: MyLeadItem, review: NonNullable<MyLeadItem["clientReview"]>, time: ReaderTime): ClientReviewEntry {
  const firstName = firstNameOrHandle({ role: "client", deleted: lead.client.deleted, handle: null, fullName: lead.client.name });
  return {
    purchaseId: lead.id,
    firstName,
    state: review.state,
    waitingText: review.state === "waiting" && review.windowEndsAt ? waitingForOtherText(firstName, time.date(review.windowEndsAt)) : null,
  };
}

/** /my-leads: a page of the digger's leads (from `?cursor=`, in `?state=` when it names one) and their ledger. */
export const myLeads = defineOperation({
  access: MY_LEADS_ACCESS,
  run: ({ services, user, diggerId, url }) =>
    myLeadsPage(services, diggerId, url.searchParams.get("cursor"), leadStateFilter(url.searchParams.get("state")), readerTime(user.timeZone, services.config)),
});
