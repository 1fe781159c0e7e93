/**
 * A digger reports an issue on one of their completed purchases (spec sections 4, 5, 8;
 * design.md section 6), from /my-leads. The refund percentage comes from the issue type, never
 * from the browser; the unique index lead_issues_purchase_key keeps it to one issue per
 * purchase. A report is taken within LEAD_ISSUE_REPORT_DAYS of the purchase only. The issue
 * gets its deadline (`respond_by`, LEAD_ISSUE_RESPONSE_HOURS from now) and, in the same
 * transaction, the job that reminds the client 24 hours before it; the client is e-mailed to
 * approve or reject it by then (the bell and an e-mail, written with the report;
 * docs/decisions/0020-refund-deadlines.md).
 *
 * Issue 48: a report on a purchase whose client had not opened the thread (nor replied in it)
 * 48 hours after the digger's first answer is approved at once by the reply guarantee's rule
 * (decided_by 'guarantee', the same decision path), while the digger has fewer than
 * GUARANTEE_REFUNDS_PER_DIGGER such refunds in GUARANTEE_WINDOW_DAYS; the client is then not
 * asked. A fake-request report goes straight to the operators (escalated, their deadline as
 * decision 0031 gives) and the client it accuses is neither asked nor told.
 *
 * Issue 49: a Wrong Phone Number report is taken only on a gig that gives a phone number. When the
 * number was not verified when the purchase completed (`lead_purchases.phone_verified_at`, kept by
 * trigger), phone verification is on and nothing shows the client was reached (a reply in the
 * thread, a hire, an accepted quote), the number failed the digger: the report is approved at once
 * (decided_by 'automatic', the same decision path, the client told by "issue.auto-approved"),
 * counted with decision 0031's automatic approvals; past that bound, when the number was verified
 * then, or when the client was reached, the client decides it like any other type.
 */
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import {
  AUTO_APPROVALS_PER_DIGGER,
  ISSUE_MESSAGES,
  issueReportFormSchema,
  REFUND_PERCENTAGES,
  reportTooLateMessage,
  WRONG_PHONE,
  type IssueReport,
} from "#core/lead-issues.ts";
import { GUARANTEE_REFUNDS_PER_DIGGER, GUARANTEE_WAIT_HOURS } from "#core/reply-guarantee.ts";
import { queryRows, type Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { clientUser, withPurchaseParties } from "./purchase-parties.ts";
import { guaranteeRefundsInWindow, lockDigger, refundableCents } from "./guarantee-refund.ts";
import { afterDecision, automaticApprovalsInWindow, decideLocked, FAKE_REQUEST, lockIssue, type Resolved, type Tellers } from "./resolve-issue.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import { defineOperation } from "../operation.ts";
import { MY_LEADS_ACCESS } from "./access.ts";

/**
 * The completed purchase `purchaseId` of digger `diggerId`, with what the client's e-mail
 * needs and whether its report window (`reportDays` after the purchase) has closed.
 */
async function reportedLead(db: AppServices["db"], diggerId: string, purchaseId: string, reportDays: number) {
  const closesAt = sql`${leadPurchases.purchasedAt} + make_interval(days => ${reportDays}::int)`;
  const [lead] = await withPurchaseParties(
    db
      .select({
        purchasedAt: leadPurchases.purchasedAt,
        windowClosed: sql<boolean>`${closesAt} <= now()`,
        gigTitle: gigs.title,
        gigPhone: gigs.contactPhone,
        phoneVerifiedAt: leadPurchases.phoneVerifiedAt,
        clientId: clientUser.id,
        clientEmail: clientUser.email,
        businessName: diggerProfiles.businessName,
        handle: diggerProfiles.handle,
      })
      .from(leadPurchases)
      .$dynamic(),
  ).where(and(eq(leadPurchases.id, purchaseId), eq(leadPurchases.diggerId, diggerId), eq(leadPurchases.status, "completed")));
  return lead;
}

/**
 * The reply guarantee's rule on a report just recorded in `tx` (purchase row locked): when the
 * client had not opened the thread nor replied in it GUARANTEE_WAIT_HOURS after the digger's first
 * answer, something is left to refund, and the digger (locked first) is below their bound, the
 * issue is approved at once; else null, and the client decides as before.
 */
async function approveByGuarantee(tx: Transaction, services: Tellers, diggerId: string, purchaseId: string, issueId: string): Promise<Resolved | null> {
  const [unopened] = await tx
    .select({ id: threads.id })
    .from(threads)
    .where(
      and(
        eq(threads.purchaseId, purchaseId),
        isNull(threads.clientOpenedAt),
        isNull(threads.clientFirstReplyAt),
        lte(threads.diggerFirstAt, sql`now() - make_interval(hours => ${GUARANTEE_WAIT_HOURS}::int)`),
      ),
    );
  if (!unopened || (await refundableCents(tx, purchaseId)) === 0) return null;
  await lockDigger(tx, diggerId);
  if ((await guaranteeRefundsInWindow(tx, diggerId)) >= GUARANTEE_REFUNDS_PER_DIGGER) return null;
  const issue = await lockIssue(tx, issueId, undefined);
  return decideLocked(tx, services, issueId, issue!, "approve", "guarantee");
}

/**
 * The number reached the client after all: they replied in the purchase's thread, hired its digger
 * or accepted their quote. A Wrong Phone Number report is then the client's to decide, not a free lead.
 */
async function contactMade(tx: Transaction, purchaseId: string): Promise<boolean> {
  const [row] = await queryRows<{ made: boolean }>(
    tx,
    sql`select exists (select 1 from threads t where t.purchase_id = ${purchaseId} and t.client_first_reply_at is not null)
        or exists (select 1 from lead_purchases p join hires h on h.gig_id = p.gig_id and h.digger_id = p.digger_id where p.id = ${purchaseId})
        or exists (select 1 from lead_purchases p join quotes q on q.gig_id = p.gig_id and q.digger_id = p.digger_id and q.status = 'accepted' where p.id = ${purchaseId})
        as made`,
  );
  return row!.made;
}

/**
 * A Wrong Phone Number report just recorded in `tx` (purchase row locked) on a number not verified
 * at purchase: approved at once while the digger (locked first) is below decision 0031's bound of
 * automatic approvals, something is left to refund and nothing shows the client was reached;
 * else null, and the client decides.
 */
async function approveUnverifiedPhone(tx: Transaction, services: Tellers, diggerId: string, purchaseId: string, issueId: string): Promise<Resolved | null> {
  if ((await refundableCents(tx, purchaseId)) === 0 || (await contactMade(tx, purchaseId))) return null;
  await lockDigger(tx, diggerId);
  if ((await automaticApprovalsInWindow(tx, diggerId)) >= AUTO_APPROVALS_PER_DIGGER) return null;
  const issue = await lockIssue(tx, issueId, undefined);
  return decideLocked(tx, services, issueId, issue!, "approve", "automatic", { unverifiedPhone: true });
}

/** How a report ended: with the client (as before), with the operators (a fake request), or approved at once. */
type Reported = { kind: "client" } | { kind: "operators" } | { kind: "guarantee" | "phone"; resolved: Resolved };

/**
 * Records the report `{ issueType, description }` (the form of /my-leads, parsed by
 * `issueReportSchema`) of digger `diggerId` on purchase `purchaseId` (the form's, unchecked)
 * and e-mails the client.
 */
async function reportIssue(
  services: Pick<AppServices, "db" | "emit" | "config" | "jobs" | "payments" | "logger">,
  diggerId: string,
  purchaseId: unknown,
  { issueType, description }: IssueReport,
  time: ReaderTime,
): Promise<Reported> {
  const { db, emit, config } = services;
  // Another digger's purchase, one never paid for, or none at all: nothing to report on.
  if (!isUuid(purchaseId)) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  const lead = await reportedLead(db, diggerId, purchaseId, config.leadIssueReportDays);
  if (!lead) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  if (lead.windowClosed) {
    const closedAt = new Date(lead.purchasedAt!.getTime() + config.leadIssueReportDays * 24 * 3600 * 1000);
    throw new AppError("conflict", reportTooLateMessage(time.date(closedAt), config.leadIssueReportDays));
  }
  const wrongPhone = issueType === WRONG_PHONE;
  // No number, nothing to be wrong: the dialog does not offer the type either.
  if (wrongPhone && !lead.gigPhone?.trim()) throw new AppError("invalid_input", ISSUE_MESSAGES.noPhone, { fieldErrors: { issueType: ISSUE_MESSAGES.noPhone } });
  // Not verified when bought: the number failed the digger (a number verified then and changed since is the client's to answer for).
  const phoneFailed = wrongPhone && lead.phoneVerifiedAt === null && phoneVerificationOn(config);

  const refundPercentage = REFUND_PERCENTAGES[issueType];
  const responseHours = config.leadIssueResponseHours;
  const fake = issueType === FAKE_REQUEST;
  const inResponseHours = sql`now() + make_interval(hours => ${responseHours}::int)`;
  let reported: Reported;
  try {
    reported = await db.transaction(async (tx): Promise<Reported> => {
      // The purchase first: a reply guarantee's check of the same purchase waits for this report (and sees it).
      await tx.select({ id: leadPurchases.id }).from(leadPurchases).where(eq(leadPurchases.id, purchaseId)).for("no key update");
      const [issue] = await tx
        .insert(leadIssues)
        .values({
          leadPurchaseId: purchaseId,
          diggerId,
          issueType,
          description,
          refundPercentage,
          // A fake request is with the operators at once (decision 0031's deadline for them).
          respondBy: fake ? sql`now()` : inResponseHours,
          escalatedAt: fake ? sql`now()` : null,
          operatorRespondBy: fake ? inResponseHours : null,
        })
        .returning({ id: leadIssues.id, respondBy: leadIssues.respondBy });
      if (fake) return { kind: "operators" };
      const byPhone = phoneFailed ? await approveUnverifiedPhone(tx, services, diggerId, purchaseId, issue!.id) : null;
      if (byPhone) return { kind: "phone", resolved: byPhone };
      const resolved = await approveByGuarantee(tx, services, diggerId, purchaseId, issue!.id);
      if (resolved) return { kind: "guarantee", resolved };
      // The client's notice, and the reminder's job (issue-deadlines.ts's issueReminderJob).
      await emit(tx, {
        kind: "issue.reported",
        issueId: issue!.id,
        clientUserId: lead.clientId,
        handle: lead.handle,
        businessName: lead.businessName,
        gigTitle: lead.gigTitle,
        issueType,
        refundPercentage,
        description,
        respondBy: issue!.respondBy,
      });
      return { kind: "client" };
    });
  } catch (error) {
    if (isUniqueViolation(error, "lead_issues_purchase_key")) throw new AppError("conflict", ISSUE_MESSAGES.alreadyReported);
    throw error;
  }
  if (reported.kind === "guarantee" || reported.kind === "phone") await afterDecision(services, reported.resolved);
  return reported;
}

const REPORTED_TEXTS = {
  client: ISSUE_MESSAGES.reported,
  operators: ISSUE_MESSAGES.fakeReported,
  guarantee: ISSUE_MESSAGES.approvedByGuarantee,
  phone: ISSUE_MESSAGES.approvedUnverifiedPhone,
} as const;

/** My Leads' Report Issue form: says it was reported, in the spec's words. */
export const reportLeadIssue = defineOperation({
  access: MY_LEADS_ACCESS,
  input: issueReportFormSchema,
  async run({ services, user, diggerId, input: { purchaseId, ...report } }) {
    const { kind } = await reportIssue(services, diggerId, purchaseId, report, readerTime(user.timeZone, services.config));
    return { success: REPORTED_TEXTS[kind] };
  },
});
