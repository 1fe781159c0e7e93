/**
 * Every event the product tells someone of, or records for operators, declared once (issue 31;
 * docs/decisions/0036-one-event-path.md): its recipients, its bell entry, its e-mail (a
 * template of server/mail/templates/), its push, its audit action when an operator did it, the
 * jobs it starts (delayed ones included) and its live updates (issue 46,
 * docs/decisions/0070-the-conversation-area-and-the-event-path.md). Operations call `emit(tx, { kind, ...data })` (emit.ts) in their transaction and
 * hand over facts only; every sentence, subject and link is here or in the templates.
 *
 * The README's table "E-mail the product sends" lists exactly the declarations with an
 * e-mail, in this order (`readme`), checked by tests/unit/event-registry.test.ts.
 */
import { CREDENTIALS, verifiedCredentialText, type CredentialKind } from "#core/credentials.ts";
import { formatDate } from "#core/dates.ts";
import { HOLD_MINUTES } from "#core/lead-spots.ts";
import { issueTypeLabel, type IssueDecider, type IssueDecision } from "#core/lead-issues.ts";
import { formatPrice } from "#core/money.ts";
import { reviewDiscardedText, reviewedYouText, reviewsPublishedText } from "#core/two-way-reviews.ts";
import type { ClientVisitOutcome, DiggerVisitOutcome, VisitCanceller, VisitReminderKind } from "#core/visits.ts";
import {
  awaitingReplyNotice,
  GUARANTEE_REFUNDS_PER_DIGGER,
  GUARANTEE_WAIT_HOURS,
  GUARANTEE_WINDOW_DAYS,
  gigRemovedRefundNotice,
  guaranteeDeclinedNotice,
  guaranteeRefundedNotice,
} from "#core/reply-guarantee.ts";
import {
  backOnSaleJobs,
  clientGigAlertJobs,
  guaranteeCheckJobs,
  issueReminderJob,
  leadAlertsJob,
  messageNoticeJobs,
  REFUND_RETRY_AFTER_SECONDS,
  refundJob,
  reviewWindowJobs,
  verifiedPhoneAlertJobs,
  visitReminderJobs,
  type JustCovered,
} from "../jobs/starts.ts";
import { replyAddress } from "../mail/reply-address.ts";
import { listUnsubscribeUrl } from "../mail/unsubscribe-token.ts";
import { signVisitAnswerToken, visitAnswerUrl } from "../mail/visit-answer-token.ts";
import {
  accountReinstatedEmail,
  accountSuspendedEmail,
  confirmationEmail,
  passwordResetEmail,
  signUpWithTakenAddressEmail,
} from "../mail/templates/account-emails.ts";
import { digestEmail, leadAlertEmail, type AlertEmailGig } from "../mail/templates/alert-emails.ts";
import { contactEmail, type ContactEmailInput } from "../mail/templates/contact-email.ts";
import { gigAwaitingReplyEmail, gigFilledEmail, gigHiddenEmail, gigRestoredEmail } from "../mail/templates/gig-emails.ts";
import {
  gigRemovedRefundEmail,
  guaranteeDeclinedEmail,
  guaranteeRefundedEmail,
  issueAutoApprovedEmail,
  issueDecidedEmail,
  issueOperatorDecidedEmail,
  issueReminderEmail,
  issueReportedEmail,
  leadBoughtEmail,
  leadUnavailableEmail,
} from "../mail/templates/lead-emails.ts";
import {
  credentialApprovedEmail,
  credentialLapsedEmail,
  credentialRejectedEmail,
  hiredEmail,
  referenceDecidedEmail,
  referenceRequestedEmail,
  reviewedEmail,
} from "../mail/templates/trust-emails.ts";
import { newMessageEmail, replyExpiredEmail } from "../mail/templates/message-emails.ts";
import { reviewsPublishedEmail, reviewWaitingEmail } from "../mail/templates/review-emails.ts";
import { quoteAcceptedEmail, quoteAcceptedLine, quoteDeclinedEmail, quoteDeclinedLine, quoteNotChosenEmail, quoteNotChosenLine } from "../mail/templates/quote-emails.ts";
import {
  changeRequestedEmail,
  changeRequestedLine,
  otherTimesAskedEmail,
  otherTimesAskedLine,
  visitBookedEmail,
  visitCancelCopyEmail,
  visitCancelledEmail,
  visitMarkedEmail,
  visitProposedEmail,
  visitProposedLine,
  visitReminderEmail,
  visitReminderLine,
} from "../mail/templates/visit-emails.ts";
import type { ReaderTime } from "../reader-time.ts";
import { declare, type DataOf } from "./declaration.ts";
import { quoteUpdates, threadUpdate } from "./live-updates.ts";
import { filledGigRecipients, visitRecipients } from "./recipients.ts";
import { proposalForReader, visitCopy, visitReader, type VisitFacts, type VisitTime } from "./visit-details.ts";

/** A push's body stays short: the notification shows a line or two. */
const PUSH_BODY_CHARACTERS = 140;
const pushExcerpt = (text: string) => (text.length > PUSH_BODY_CHARACTERS ? `${text.slice(0, PUSH_BODY_CHARACTERS - 1)}…` : text);

/** Where a digger's credentials are edited: the link of every credential notice. */
const CREDENTIALS_LINK = "/digger-registration#credentials";

/** An account's e-mail sent from Better Auth's callbacks: the address it gave, the account's id. */
interface AccountAddress {
  userId: string;
  name: string;
  address: string;
}
const toAccount = (e: AccountAddress) => ({ userId: e.userId, address: e.address });

/** A decided lead issue, as resolve-issue.ts tells both sides of it. */
export interface IssueOutcome {
  issueId: string;
  decision: IssueDecision;
  decidedBy: IssueDecider;
  /** Approved at once: a Wrong Phone Number report on a number not verified at purchase (issue 49); absent in events of before. */
  unverifiedPhone?: boolean;
  refundCents: number;
  refundPercentage: number;
  issueType: string;
  gigTitle: string;
  respondBy: Date;
  digger: { userId: string };
  client: { userId: string };
}

/** What the client's e-mails of an issue decided without them say. */
const clientIssue = (e: IssueOutcome, publicUrl: string, time: ReaderTime) => ({
  publicUrl,
  gigTitle: e.gigTitle,
  issueType: issueTypeLabel(e.issueType),
  respondBy: time.dateTime(e.respondBy),
  refund: formatPrice(e.refundCents),
  refundPercentage: e.refundPercentage,
});

const operatorIssueSubject = (e: IssueOutcome) => `The issue on your gig "${e.gigTitle}" was ${e.decision === "approve" ? "approved" : "rejected"} by Digs & Gigs`;
const autoApprovedSubject = (e: IssueOutcome) => `An issue on your gig "${e.gigTitle}" was approved automatically`;
const diggerIssueSubject = (e: IssueOutcome) =>
  `Your issue report for "${e.gigTitle}" was ${e.decidedBy === "automatic" ? "approved automatically" : e.decision === "approve" ? "approved" : "rejected"}`;

const referenceLine = (e: { handle: string; approved: boolean; referenceName: string }) =>
  `${e.handle} ${e.approved ? "approved" : "declined"} your request for the contact details of ${e.referenceName}`;
const leadBoughtLine = (e: { handle: string; gigTitle: string }) => `${e.handle} bought your lead for "${e.gigTitle}"`;
const unavailableSubject = (e: { why: "full" | "gone"; gigTitle: string }) =>
  e.why === "full" ? `The lead for "${e.gigTitle}" is full` : `The lead for "${e.gigTitle}" is no longer available`;
/** "Respond by Tue, Dec 1, 7:53 PM CST", in the reader's zone. */
const respondByLine = (respondBy: Date, time: ReaderTime) => `Respond by ${time.deadline(respondBy)}`;

const visitUpdate = (e: VisitFacts) => threadUpdate(e.threadId, [e.diggerUserId, e.clientId]);
/** The other side's mark after the window, as the bell and the e-mail tell it. */
const visitMarkedLine = (e: VisitFacts & { outcome: DiggerVisitOutcome | ClientVisitOutcome }) =>
  e.outcome === "digger_absent"
    ? `${e.clientName} says you did not come to the visit for "${e.gigTitle}"`
    : e.outcome === "client_absent"
      ? `${e.handle} says you were not there for the visit about "${e.gigTitle}"`
      : `${e.handle} marked the visit for "${e.gigTitle}" as visited`;

export const EVENTS = {
  // Accounts (Better Auth's callbacks: no transaction of theirs, emitted with the database).
  "account.confirm-email": declare<AccountAddress & { token: string; client: boolean }>()({
    group: "account",
    mustNotMiss: true,
    to: toAccount,
    email: (e, { config }) =>
      confirmationEmail({ name: e.name, link: `${config.publicUrl}/verify-email?token=${encodeURIComponent(e.token)}`, client: e.client }),
    readme: { subject: "Confirm your e-mail for Digs & Gigs", to: "the new account" },
  }),
  "account.password-reset": declare<AccountAddress & { token: string }>()({
    group: "account",
    mustNotMiss: true,
    to: toAccount,
    email: (e, { config }) => passwordResetEmail({ name: e.name, link: `${config.publicUrl}/reset-password?token=${encodeURIComponent(e.token)}` }),
    readme: { subject: "Reset your Digs & Gigs password", to: "the account" },
  }),
  "account.sign-up-taken": declare<AccountAddress>()({
    group: "account",
    mustNotMiss: true,
    to: toAccount,
    email: (e, { config }) => signUpWithTakenAddressEmail({ name: e.name, publicUrl: config.publicUrl }),
    readme: { subject: "Someone tried to sign up with your e-mail address", to: "the account's owner" },
  }),
  /** A client confirmed their address: the gigs it published get their lead alerts (decision 0023). */
  "account.email-confirmed": declare<{ userId: string }>()({
    jobs: (e, { tx }) => clientGigAlertJobs(tx, e.userId),
  }),
  "contact.message": declare<ContactEmailInput>()({
    to: (_e, { config }) => ({ address: config.supportEmail, userId: null }),
    email: (e) => ({ ...contactEmail(e), replyTo: e.email }),
    readme: { subject: "Contact form: {subject}", to: "support (`SUPPORT_EMAIL`)" },
  }),

  // Leads.
  "lead.bought": declare<{ purchaseId: string; clientUserId: string; clientName: string; handle: string; gigTitle: string; amountCents: number; diggerId: string }>()({
    group: "purchases",
    to: (e) => ({ userId: e.clientUserId }),
    bell: (e) => ({ subjectId: e.purchaseId, text: leadBoughtLine(e), link: `/digger/${e.diggerId}` }),
    email: (e, { config }) =>
      leadBoughtEmail({ publicUrl: config.publicUrl, clientName: e.clientName, line: leadBoughtLine(e), price: formatPrice(e.amountCents), diggerId: e.diggerId }),
    readme: { subject: '{handle} bought your lead for "{gig title}"', to: "the client" },
  }),
  "lead.unavailable": declare<{ purchaseId: string; diggerUserId: string; diggerName: string; gigTitle: string; amountCents: number; why: "full" | "gone" }>()({
    group: "quotes",
    mustNotMiss: true,
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({
      subjectId: e.purchaseId,
      text: `${unavailableSubject(e)}: your payment of ${formatPrice(e.amountCents)} is refunded in full`,
      link: "/browse-gigs",
    }),
    email: (e) =>
      leadUnavailableEmail({ subject: unavailableSubject(e), diggerName: e.diggerName, why: e.why, gigTitle: e.gigTitle, price: formatPrice(e.amountCents), holdMinutes: HOLD_MINUTES }),
    readme: { subject: 'The lead for "{gig title}" is full / is no longer available', to: "the digger" },
  }),
  "issue.reported": declare<{
    issueId: string;
    clientUserId: string;
    handle: string;
    businessName: string;
    gigTitle: string;
    issueType: string;
    refundPercentage: number;
    description: string;
    respondBy: Date;
  }>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.clientUserId }),
    bell: (e, { time }) => ({
      subjectId: e.issueId,
      text: `${e.handle} reported an issue with your gig "${e.gigTitle}". ${respondByLine(e.respondBy, time)}.`,
      link: "/my-gigs",
    }),
    email: (e, { config, time }) =>
      issueReportedEmail({
        publicUrl: config.publicUrl,
        subject: `A digger reported an issue with your gig "${e.gigTitle}"`,
        businessName: e.businessName,
        handle: e.handle,
        gigTitle: e.gigTitle,
        issueType: issueTypeLabel(e.issueType),
        refundPercentage: e.refundPercentage,
        description: e.description,
        respondBy: respondByLine(e.respondBy, time),
      }),
    jobs: (e, { config }) => issueReminderJob(e.issueId, config.leadIssueResponseHours),
    readme: { subject: 'A digger reported an issue with your gig "{gig title}"', to: "the client" },
  }),
  "issue.reminder": declare<{ issueId: string; clientUserId: string; gigTitle: string; issueType: string; respondBy: Date }>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.clientUserId }),
    bell: (e, { time }) => ({
      subjectId: e.issueId,
      text: `Reminder: an issue on your gig "${e.gigTitle}" is waiting for you. ${respondByLine(e.respondBy, time)}.`,
      link: "/my-gigs",
    }),
    email: (e, { config, time }) =>
      issueReminderEmail({ publicUrl: config.publicUrl, gigTitle: e.gigTitle, issueType: issueTypeLabel(e.issueType), respondBy: respondByLine(e.respondBy, time) }),
    readme: { subject: 'Reminder: respond to the issue on your gig "{gig title}"', to: "the client" },
  }),
  "issue.auto-approved": declare<IssueOutcome>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.client.userId }),
    bell: (e) => ({
      subjectId: e.issueId,
      text: e.unverifiedPhone
        ? `${autoApprovedSubject(e)}: its phone number was not verified, the digger is refunded, you pay nothing`
        : `${autoApprovedSubject(e)}: the digger is refunded, you pay nothing`,
      link: "/my-gigs",
    }),
    email: (e, { config, time }) =>
      issueAutoApprovedEmail({ ...clientIssue(e, config.publicUrl, time), subject: autoApprovedSubject(e), unverifiedPhone: e.unverifiedPhone === true }),
    readme: { subject: 'An issue on your gig "{gig title}" was approved automatically', to: "the client" },
  }),
  "issue.decided": declare<IssueOutcome>()({
    group: "quotes",
    mustNotMiss: true,
    to: (e) => ({ userId: e.digger.userId }),
    bell: (e) => ({
      subjectId: e.issueId,
      text: e.decision === "approve" ? `${diggerIssueSubject(e)}: ${formatPrice(e.refundCents)} refunded` : `${diggerIssueSubject(e)}: no refund`,
      link: "/my-leads",
    }),
    email: (e, { config, time }) => {
      const approved = e.decision === "approve";
      const decider = e.decidedBy === "operator" ? "Digs & Gigs" : "The client";
      const report = `your report (${issueTypeLabel(e.issueType)}) on the lead "${e.gigTitle}"`;
      const refund = `A refund of ${formatPrice(e.refundCents)} (${e.refundPercentage}%) goes back to your card.`;
      return issueDecidedEmail({
        publicUrl: config.publicUrl,
        subject: diggerIssueSubject(e),
        outcome:
          e.unverifiedPhone
            ? `The client had not verified the phone number of the gig when you bought the lead, so ${report} was approved at once. ${refund}`
            : e.decidedBy === "automatic"
            ? `The client did not respond by ${time.dateTime(e.respondBy)}, so ${report} was approved automatically. ${refund}`
            : e.decidedBy === "guarantee"
              ? `The client had not opened your thread ${GUARANTEE_WAIT_HOURS} hours after your first message, so ${report} was approved at once. ${refund}`
              : approved
              ? `${decider} approved ${report}. ${refund}`
              : `${decider} rejected ${report}. No refund is made.`,
      });
    },
    readme: { subject: 'Your issue report for "{gig title}" was approved / rejected / approved automatically', to: "the digger" },
  }),
  /** An operator decided an issue the client left past its deadline (decision 0031). */
  "issue.decided-by-operator": declare<IssueOutcome & { operatorId: string }>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.client.userId }),
    audit: (e) => ({
      operatorId: e.operatorId,
      action: e.decision === "approve" ? "issue.approve" : "issue.reject",
      subjectType: "issue",
      subjectId: e.issueId,
      subjectUserId: e.digger.userId,
      details: { clientUserId: e.client.userId, refundCents: String(e.refundCents) },
    }),
    bellKind: "issue.decided",
    bell: (e) => ({
      subjectId: e.issueId,
      text: e.decision === "approve" ? `${operatorIssueSubject(e)}: the digger is refunded, you pay nothing` : `${operatorIssueSubject(e)}: no refund`,
      link: "/my-gigs",
    }),
    email: (e, { config, time }) => issueOperatorDecidedEmail({ ...clientIssue(e, config.publicUrl, time), subject: operatorIssueSubject(e), approved: e.decision === "approve" }),
    readme: { subject: 'The issue on your gig "{gig title}" was approved / rejected by Digs & Gigs', to: "the client" },
  }),
  /** The reply guarantee refunded a lead whose client did nothing in its thread (issue 48; leads/guarantee-refund.ts). */
  "guarantee.refunded": declare<{ purchaseId: string; refundId: string; amountCents: number; diggerUserId: string; gigTitle: string }>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({ subjectId: e.purchaseId, text: guaranteeRefundedNotice(e.gigTitle), link: "/my-leads" }),
    email: (e, { config }) =>
      guaranteeRefundedEmail({ publicUrl: config.publicUrl, subject: guaranteeRefundedNotice(e.gigTitle), refund: formatPrice(e.amountCents), waitHours: GUARANTEE_WAIT_HOURS }),
    readme: { subject: 'We refunded your lead "{gig title}": the client did not open your thread within 48 hours', to: "the digger" },
  }),
  /** An operator approved a reply guarantee refund past the digger's bound (ops/decide-guarantee.ts): the audit row; "guarantee.refunded" tells the digger. */
  "guarantee.approved-by-operator": declare<{ operatorId: string; purchaseId: string; diggerUserId: string; clientUserId: string; refundCents: number }>()({
    audit: (e) => ({
      operatorId: e.operatorId,
      action: "guarantee.approve",
      subjectType: "user",
      subjectId: e.diggerUserId,
      subjectUserId: e.diggerUserId,
      details: { purchaseId: e.purchaseId, clientUserId: e.clientUserId, refundCents: String(e.refundCents) },
    }),
  }),
  /** An operator declined a reply guarantee refund past the digger's bound (ops/decide-guarantee.ts). */
  "guarantee.declined": declare<{ operatorId: string; purchaseId: string; diggerUserId: string; clientUserId: string; gigTitle: string }>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.diggerUserId }),
    audit: (e) => ({
      operatorId: e.operatorId,
      action: "guarantee.decline",
      subjectType: "user",
      subjectId: e.diggerUserId,
      subjectUserId: e.diggerUserId,
      details: { purchaseId: e.purchaseId, clientUserId: e.clientUserId },
    }),
    bell: (e) => ({ subjectId: e.purchaseId, text: guaranteeDeclinedNotice(e.gigTitle), link: "/my-leads" }),
    email: (e, { config }) =>
      guaranteeDeclinedEmail({ publicUrl: config.publicUrl, subject: guaranteeDeclinedNotice(e.gigTitle), perDigger: GUARANTEE_REFUNDS_PER_DIGGER, windowDays: GUARANTEE_WINDOW_DAYS }),
    readme: { subject: 'Your reply guarantee refund for "{gig title}" was declined by Digs & Gigs', to: "the digger" },
  }),
  /** An operator decided a fake-request report (ops/decide-fake-request.ts): the audit row; "issue.decided" tells the digger, never the client. */
  "fake-request.decided": declare<{ operatorId: string; issueId: string; decision: IssueDecision; diggerUserId: string; clientUserId: string; gigId: string; refunded: number }>()({
    audit: (e) => ({
      operatorId: e.operatorId,
      action: e.decision === "approve" ? "fake_request.approve" : "fake_request.reject",
      subjectType: "issue",
      subjectId: e.issueId,
      subjectUserId: e.diggerUserId,
      details: { clientUserId: e.clientUserId, gigId: e.gigId, refundedBuyers: String(e.refunded) },
    }),
  }),
  /** A buyer of a gig taken down after a fake-request report is refunded what was left of their purchase (ops/decide-fake-request.ts). */
  "gig.removed-refund": declare<{ purchaseId: string; refundId: string; amountCents: number; diggerUserId: string; gigTitle: string }>()({
    group: "purchases",
    mustNotMiss: true,
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({ subjectId: e.purchaseId, text: gigRemovedRefundNotice(e.gigTitle), link: "/my-leads" }),
    email: (e, { config }) => gigRemovedRefundEmail({ publicUrl: config.publicUrl, subject: gigRemovedRefundNotice(e.gigTitle), refund: formatPrice(e.amountCents) }),
    readme: { subject: 'The gig "{gig title}" was taken down: your lead is refunded', to: "each other buyer of the gig" },
  }),
  /** An operator asks the provider again for a refund that failed; its job belongs to leads/refunds.ts. */
  "refund.retried": declare<{ operatorId: string; refundId: string; diggerUserId: string }>()({
    audit: (e) => ({ operatorId: e.operatorId, action: "refund.retry", subjectType: "refund", subjectId: e.refundId, subjectUserId: e.diggerUserId }),
    jobs: (e) => [refundJob(e.refundId)],
  }),
  /** A refund was decided (an approved issue, a duplicate payment, a lead no longer available): its job tries again a minute on. */
  "refund.recorded": declare<{ refundId: string }>()({
    jobs: (e) => [refundJob(e.refundId, REFUND_RETRY_AFTER_SECONDS)],
  }),

  // References, gigs and earned trust.
  "reference.requested": declare<{ requestId: string; diggerUserId: string; clientName: string; referenceName: string }>()({
    group: "quotes",
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({
      subjectId: e.requestId,
      text: `${e.clientName} asked for the contact details of your reference ${e.referenceName}`,
      link: "/reference-requests",
    }),
    email: (e, { config }) => referenceRequestedEmail({ publicUrl: config.publicUrl, clientName: e.clientName, referenceName: e.referenceName }),
    readme: { subject: "New reference contact request", to: "the digger" },
  }),
  "reference.decided": declare<{ requestId: string; clientUserId: string; handle: string; referenceName: string; approved: boolean; diggerId: string }>()({
    group: "quotes",
    to: (e) => ({ userId: e.clientUserId }),
    bell: (e) => ({ subjectId: e.requestId, text: referenceLine(e), link: `/digger/${e.diggerId}` }),
    email: (e, { config }) => referenceDecidedEmail({ publicUrl: config.publicUrl, line: referenceLine(e), approved: e.approved, diggerId: e.diggerId }),
    readme: { subject: "Your reference contact request was approved / declined", to: "the client" },
  }),
  /** `buyerUserIds`: every buyer; the ones a quote's outcome already told are left out (recipients.ts). */
  "gig.filled": declare<{ gigId: string; gigTitle: string; buyerUserIds: string[] }>()({
    group: "quotes",
    to: (e, { tx }) => filledGigRecipients(tx, e.gigId, e.buyerUserIds),
    bell: (e) => ({ subjectId: e.gigId, text: `The gig "${e.gigTitle}" you bought was closed as filled`, link: "/my-leads" }),
    email: (e, { config }) => gigFilledEmail({ publicUrl: config.publicUrl, gigTitle: e.gigTitle }),
    readme: { subject: 'The gig "{gig title}" has been filled', to: "each digger who bought it" },
  }),
  /**
   * The reply guarantee paused the gig: diggers wrote and its client opened none of their threads
   * (leads/pause-gig.ts, once per pause). Told to the client; the gig is listed again when they open one.
   */
  "gig.awaiting-reply": declare<{ gigId: string; clientUserId: string; gigTitle: string }>()({
    group: "purchases",
    to: (e) => ({ userId: e.clientUserId }),
    bell: (e) => ({ subjectId: e.gigId, text: awaitingReplyNotice(e.gigTitle), link: "/messages" }),
    email: (e, { config }) => gigAwaitingReplyEmail({ publicUrl: config.publicUrl, subject: awaitingReplyNotice(e.gigTitle), gigTitle: e.gigTitle }),
    readme: { subject: 'Diggers are waiting for your reply about "{gig title}"', to: "the client" },
  }),
  /** `purchaseId`: the purchase the hire rests on, the notice's subject. */
  "hire.marked": declare<{ purchaseId: string; diggerUserId: string; diggerId: string; gigTitle: string }>()({
    group: "quotes",
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({ subjectId: e.purchaseId, text: `You were marked as hired for "${e.gigTitle}"`, link: `/digger/${e.diggerId}` }),
    email: (e, { config }) => hiredEmail({ publicUrl: config.publicUrl, gigTitle: e.gigTitle, diggerId: e.diggerId }),
    readme: { subject: 'You were marked as hired for "{gig title}"', to: "the digger" },
  }),
  /**
   * Two-way reviews (issue 51, server/reviews/review-window.ts): a hire opened its blind review
   * window, ending at `endsAt`; its reminder and its publication are jobs (reviews/review-window-jobs.ts).
   */
  "review.window-opened": declare<{ gigId: string; diggerId: string; endsAt: string }>()({
    jobs: (e) => reviewWindowJobs(e),
  }),
  /**
   * One side of a blind window wrote its review: the other side (`recipientSide`) hears once,
   * and again REVIEW_REMINDER_DAYS before the end if they still have not written (`reminder`).
   * Nothing of the review itself: it is blind.
   */
  "review.waiting": declare<{
    gigId: string;
    diggerId: string;
    gigTitle: string;
    recipientUserId: string;
    recipientSide: "client" | "digger";
    writerName: string;
    endsAt: string;
    reminder: boolean;
  }>()({
    group: "quotes",
    to: (e) => ({ userId: e.recipientUserId }),
    bell: (e, { time }) => ({
      subjectId: `${e.gigId}:${e.diggerId}:${e.reminder ? "reminder" : "first"}`,
      text: reviewedYouText(e.writerName, time.date(e.endsAt)),
      link: e.recipientSide === "digger" ? "/my-leads" : "/my-gigs",
    }),
    email: (e, { config, time }) =>
      reviewWaitingEmail({
        publicUrl: config.publicUrl,
        subject: reviewedYouText(e.writerName, time.date(e.endsAt)),
        writerName: e.writerName,
        gigTitle: e.gigTitle,
        date: time.date(e.endsAt),
        recipientSide: e.recipientSide,
        reminder: e.reminder,
      }),
    readme: { subject: "{name} reviewed you. Write yours by {date} to see it.", to: "the party of a hire who has not reviewed the other yet" },
  }),
  /** The client removed the hire while the digger's review of them was blind: discarded (decision 0077); the digger hears. */
  "review.discarded": declare<{ gigId: string; diggerId: string; gigTitle: string; diggerUserId: string; clientName: string }>()({
    group: "quotes",
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({ subjectId: `${e.gigId}:${e.diggerId}`, text: reviewDiscardedText(e.clientName, e.gigTitle), link: "/my-leads" }),
  }),
  /** Both reviews of a hire are shown (the second one written, or the window's end): both parties hear. */
  "reviews.published": declare<{ gigId: string; diggerId: string; gigTitle: string; clientUserId: string; diggerUserId: string }>()({
    group: "quotes",
    to: (e) => [{ userId: e.clientUserId }, { userId: e.diggerUserId }],
    bell: (e, { recipient }) => ({
      subjectId: `${e.gigId}:${e.diggerId}`,
      text: reviewsPublishedText(e.gigTitle),
      link: recipient.userId === e.diggerUserId ? `/digger/${e.diggerId}#reviews` : "/account#client-reviews",
    }),
    email: (e, { config, recipient }) =>
      reviewsPublishedEmail({ publicUrl: config.publicUrl, subject: reviewsPublishedText(e.gigTitle), gigTitle: e.gigTitle, toDigger: recipient.userId === e.diggerUserId, diggerId: e.diggerId }),
    readme: { subject: 'Your reviews for "{gig title}" are now shown', to: "both parties of the hire" },
  }),
  /**
   * A hire removed (Undo on Mark as Hired): the conversations react (server/services.ts wires
   * conversations/reopen-quote.ts), reopening the digger's accepted quote of the gig. The last
   * hire gone, the gig is back on sale (issue 47): its lead alerts start again.
   */
  "hire.removed": declare<{ gigId: string; diggerId: string }>()({
    jobs: (e, { tx }) => backOnSaleJobs(tx, e.gigId),
  }),
  /** A quote accepted before a hire that was removed is open again. */
  "quote.reopened": declare<{ gigId: string; threadIds: string[] }>()({
    live: (e, { tx }) => quoteUpdates(tx, e.gigId, e.threadIds),
  }),
  /** Quotes (issue 33): an accept tells the chosen digger and every other buyer not hired, once each; `quoteId` the subject. */
  /** `guarantee`: the quote was its digger's first answer and covered the purchase (the reply guarantee's check starts, issue 48). */
  "quote.sent": declare<{ gigId: string; threadId: string; guarantee?: JustCovered }>()({
    jobs: (e) => guaranteeCheckJobs(e.guarantee),
    live: (e, { tx }) => quoteUpdates(tx, e.gigId, [e.threadId]),
  }),
  /** A new version of an open quote; the old one 'replaced'. */
  "quote.revised": declare<{ gigId: string; threadId: string }>()({
    live: (e, { tx }) => quoteUpdates(tx, e.gigId, [e.threadId]),
  }),
  "quote.withdrawn": declare<{ gigId: string; threadId: string }>()({
    live: (e, { tx }) => quoteUpdates(tx, e.gigId, [e.threadId]),
  }),
  /** `notChosenThreadIds`: the threads of the gig's other open quotes, now 'Not chosen'. */
  "quote.accepted": declare<{
    quoteId: string;
    gigId: string;
    threadId: string;
    notChosenThreadIds: string[];
    diggerUserId: string;
    clientFirstName: string;
    gigTitle: string;
    price: string;
  }>()({
    group: "quotes",
    live: (e, { tx }) => quoteUpdates(tx, e.gigId, [e.threadId, ...e.notChosenThreadIds]),
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({ subjectId: e.quoteId, text: quoteAcceptedLine(e), link: `/messages/${e.threadId}` }),
    email: (e, { config }) => quoteAcceptedEmail({ publicUrl: config.publicUrl, ...e }),
    readme: { subject: '{first name} accepted your quote for "{gig title}"', to: "the digger" },
  }),
  "quote.not-chosen": declare<{ gigId: string; gigTitle: string; diggerUserIds: string[] }>()({
    group: "quotes",
    to: (e) => e.diggerUserIds.map((userId) => ({ userId })),
    bell: (e) => ({ subjectId: e.gigId, text: quoteNotChosenLine(e), link: "/my-leads" }),
    email: (e, { config }) => quoteNotChosenEmail({ publicUrl: config.publicUrl, gigTitle: e.gigTitle }),
    readme: { subject: 'The client chose another digger for "{gig title}"', to: "each other digger who bought the lead, unless marked hired" },
  }),
  "quote.declined": declare<{ quoteId: string; gigId: string; threadId: string; diggerUserId: string; clientFirstName: string; gigTitle: string; reason: string | null }>()({
    group: "quotes",
    live: (e, { tx }) => quoteUpdates(tx, e.gigId, [e.threadId]),
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({ subjectId: e.quoteId, text: quoteDeclinedLine(e), link: `/messages/${e.threadId}` }),
    email: (e, { config }) => quoteDeclinedEmail({ publicUrl: config.publicUrl, ...e }),
    readme: { subject: '{first name} declined your quote for "{gig title}"', to: "the digger" },
  }),
  "review.received": declare<{ purchaseId: string; diggerUserId: string; diggerId: string; gigTitle: string; rating: number; edited: boolean }>()({
    group: "quotes",
    to: (e) => ({ userId: e.diggerUserId }),
    bell: (e) => ({
      subjectId: e.purchaseId,
      text: e.edited ? `A client updated their review of you for "${e.gigTitle}"` : `New review for "${e.gigTitle}": ${e.rating} out of 5 stars`,
      link: `/digger/${e.diggerId}#reviews`,
    }),
    email: (e, { config }) => reviewedEmail({ publicUrl: config.publicUrl, gigTitle: e.gigTitle, diggerId: e.diggerId, rating: e.rating, edited: e.edited }),
    readme: { subject: 'New review for "{gig title}" / A client updated their review of you for "{gig title}"', to: "the digger" },
  }),

  // Site visits (issue 50; server/conversations/visits/, decision 0076): the other party hears
  // of each step at once, by How to reach me's 'Visits' row; both open threads re-read. Each
  // party's e-mail is written for them (events/visit-details.ts): the times in their zone, the
  // invitation naming them at their own address and the other party at the thread's reply address.
  "visit.proposed": declare<VisitFacts & { proposalId: string; reschedule: boolean }>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.clientId]),
    bell: (e) => ({ subjectId: e.proposalId, text: visitProposedLine(e), link: `/messages/${e.threadId}` }),
    email: async (e, context) => visitProposedEmail({ publicUrl: context.config.publicUrl, ...e, ...(await proposalForReader(context, e.proposalId)) }),
    live: (e) => visitUpdate(e),
    readme: { subject: '{handle} proposed times for a visit about "{gig title}" / proposed new times for your visit about "{gig title}"', to: "the client" },
  }),
  "visit.other-times-asked": declare<VisitFacts & { proposalId: string }>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.diggerUserId]),
    bell: (e) => ({ subjectId: e.proposalId, text: otherTimesAskedLine(e), link: `/messages/${e.threadId}` }),
    email: (e, { config }) => otherTimesAskedEmail({ publicUrl: config.publicUrl, ...e }),
    live: (e) => visitUpdate(e),
    readme: { subject: '{first name} asked for other times for a visit about "{gig title}"', to: "the digger" },
  }),
  /**
   * Booked, or moved to new times (`sequence` > 0): both parties, each in their own zone, with the
   * invitation (METHOD:REQUEST, same UID, SEQUENCE = `sequence`) and the visit's reminders started
   * on the queue for their due times (the trigger on `visits` wrote or moved them in this transaction).
   */
  "visit.booked": declare<VisitFacts & VisitTime>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.diggerUserId, e.clientId]),
    bell: (e, { time }) => ({
      subjectId: `${e.visitId}:${e.sequence}`,
      text: `${e.sequence > 0 ? "Visit moved" : "Visit booked"} for "${e.gigTitle}": ${time.visitWindow(e.startsAt, e.windowMinutes)}`,
      link: `/messages/${e.threadId}`,
    }),
    email: async (e, context) => {
      const copy = await visitCopy(e, context, "REQUEST");
      const window = context.time.visitWindow(e.startsAt, e.windowMinutes);
      return {
        ...visitBookedEmail({ publicUrl: context.config.publicUrl, ...e, window, moved: e.sequence > 0, otherName: copy.otherName, location: copy.location, googleCalendarUrl: copy.googleCalendarUrl }),
        calendar: copy.calendar,
      };
    },
    jobs: (e, { tx }) => visitReminderJobs(tx, e.visitId),
    live: (e) => visitUpdate(e),
    readme: { subject: "Visit booked: {day, window} / Visit moved: {day, window}", to: "both parties" },
  }),
  /** Cancelled by a party (`by`, told to the other) or by the system (a suspension, a block: told to both). */
  "visit.cancelled": declare<VisitFacts & VisitTime & { by: VisitCanceller; reason: string | null; late: boolean }>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, e.by === "system" ? [e.diggerUserId, e.clientId] : [e.by === "digger" ? e.clientId : e.diggerUserId]),
    bell: (e, { time }) => ({
      subjectId: `${e.visitId}:${e.sequence}`,
      text: `${e.by === "system" ? "The visit" : `${e.by === "digger" ? e.handle : e.clientName} cancelled the visit`} for "${e.gigTitle}" on ${time.visitWindow(e.startsAt, e.windowMinutes)}${e.by === "system" ? " was cancelled" : ""}`,
      link: `/messages/${e.threadId}`,
    }),
    email: async (e, context) => {
      const copy = await visitCopy(e, context, "CANCEL");
      const byName = e.by === "system" ? null : e.by === "digger" ? e.handle : e.clientName;
      return {
        ...visitCancelledEmail({ publicUrl: context.config.publicUrl, ...e, window: context.time.visitWindow(e.startsAt, e.windowMinutes), byName }),
        calendar: copy.calendar,
      };
    },
    live: (e) => visitUpdate(e),
    readme: { subject: "Visit cancelled: {day, window}", to: "the other party (both, when Digs & Gigs cancels it)" },
  }),
  /** The canceller's own copy (their calendar drops the visit): no bell, an e-mail only. */
  "visit.cancel-copy": declare<VisitFacts & VisitTime & { by: VisitCanceller }>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.by === "digger" ? e.diggerUserId : e.clientId]),
    email: async (e, context) => {
      const copy = await visitCopy(e, context, "CANCEL");
      return {
        ...visitCancelCopyEmail({ publicUrl: context.config.publicUrl, ...e, window: context.time.visitWindow(e.startsAt, e.windowMinutes), otherName: copy.otherName }),
        calendar: copy.calendar,
      };
    },
    readme: { subject: "You cancelled the visit: {day, window}", to: "the party who cancelled" },
  }),
  /** The client's 'Need to change' (from the reminder's signed link or the thread): the digger proposes new times or cancels. */
  "visit.change-requested": declare<VisitFacts & VisitTime>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.diggerUserId]),
    bell: (e) => ({ subjectId: `${e.visitId}:${e.sequence}:change`, text: changeRequestedLine(e), link: `/messages/${e.threadId}` }),
    email: (e, { config, time }) => changeRequestedEmail({ publicUrl: config.publicUrl, ...e, window: time.visitWindow(e.startsAt, e.windowMinutes) }),
    live: (e) => visitUpdate(e),
    readme: { subject: '{first name} needs to change the visit for "{gig title}"', to: "the digger" },
  }),
  /** The client's Confirm: the digger's card shows 'Client confirmed'. */
  "visit.confirmed": declare<VisitFacts & VisitTime>()({
    live: (e) => visitUpdate(e),
  }),
  /** How the visit went, marked by one side: the other hears of it (it feeds both records). */
  "visit.marked": declare<VisitFacts & { visitId: string; outcome: DiggerVisitOutcome | ClientVisitOutcome }>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.outcome === "digger_absent" ? e.diggerUserId : e.clientId]),
    bell: (e) => ({ subjectId: `${e.visitId}:marked`, text: visitMarkedLine(e), link: `/messages/${e.threadId}` }),
    email: (e, { config }) => visitMarkedEmail({ publicUrl: config.publicUrl, ...e, line: visitMarkedLine(e) }),
    live: (e) => visitUpdate(e),
    readme: {
      subject: '{first name} says you did not come to the visit for "{gig title}" / {handle} says you were not there for the visit about "{gig title}" / {handle} marked the visit for "{gig title}" as visited',
      to: "the other party",
    },
  }),
  /**
   * A reminder, 24 hours (`reminder`: "day") or 2 hours ("hours") before the window opens (the `visit.remind`
   * job, conversations/visits/send-reminder.ts): both parties, each in their zone; the client's
   * 24-hour one carries the signed Confirm and Need to change links of the visit as it stands
   * (`sequence`).
   */
  "visit.reminder": declare<VisitFacts & VisitTime & { reminder: VisitReminderKind; clientConfirmed: boolean }>()({
    group: "visits",
    to: (e, { tx }) => visitRecipients(tx, [e.diggerUserId, e.clientId]),
    bell: (e, { time }) => ({
      subjectId: `${e.visitId}:${e.sequence}:${e.reminder}:${e.startsAt}`,
      text: `${visitReminderLine(e.reminder, time.visitWindow(e.startsAt, e.windowMinutes))} ("${e.gigTitle}")`,
      link: `/messages/${e.threadId}`,
    }),
    push: (e, { time }) => ({
      title: e.reminder === "day" ? "Reminder: your visit" : "Your visit starts soon",
      body: pushExcerpt(`${time.visitWindow(e.startsAt, e.windowMinutes)} · ${e.gigTitle}`),
      link: `/messages/${e.threadId}`,
    }),
    email: async (e, context) => {
      const reader = await visitReader(e, context);
      const { config } = context;
      const token = reader.role === "client" && e.reminder === "day" ? signVisitAnswerToken(config.authSecret, { id: e.visitId, sequence: e.sequence, clientId: e.clientId }) : null;
      return visitReminderEmail({
        publicUrl: config.publicUrl,
        ...e,
        window: context.time.visitWindow(e.startsAt, e.windowMinutes),
        otherName: reader.otherName,
        location: reader.location,
        clientConfirmed: reader.role === "digger" && e.clientConfirmed,
        answers: token ? { confirm: visitAnswerUrl(config.publicUrl, token, "confirm"), change: visitAnswerUrl(config.publicUrl, token, "change") } : null,
      });
    },
    readme: { subject: "Reminder: your visit is on {day, window} / Your visit starts soon: {day, window}", to: "both parties" },
  }),

  // Conversations (issue 32; conversations/message-notices.ts, decision 0038 "Notifications").
  /**
   * A message was written (in the product or by e-mail): both parties' open pages hear of it at
   * the commit (the sender's other tabs too), and the `messages.tell` job tells its recipient
   * ("message.arrived", just below) once the sender has their answer (decision 0078).
   */
  /** `guarantee`: the message was its digger's first answer and covered the purchase (the reply guarantee's check starts, issue 48). */
  "message.sent": declare<{ messageId: string; threadId: string; senderUserId: string; recipientUserId: string; guarantee?: JustCovered }>()({
    jobs: (e) => [{ name: "messages.tell", data: { messageId: e.messageId } }, ...guaranteeCheckJobs(e.guarantee)],
    live: (e) => threadUpdate(e.threadId, [e.recipientUserId, e.senderUserId]),
  }),
  /**
   * A message's recipient is told of it (conversations/push-notice.ts, moments after the send):
   * their devices are pushed to at once, and the notice of unread messages is scheduled 5
   * minutes after the message, unless one is pending already.
   */
  "message.arrived": declare<{ threadId: string; recipientUserId: string; senderName: string; gigTitle: string; text: string; sentSecondsAgo: number }>()({
    to: (e) => ({ userId: e.recipientUserId }),
    group: "messages",
    push: (e) => ({ title: `New message from ${e.senderName}`, body: `${e.gigTitle}: ${pushExcerpt(e.text)}`, link: `/messages/${e.threadId}` }),
    jobs: (e, { tx }) => messageNoticeJobs(tx, e.threadId, e.recipientUserId, e.sentSecondsAgo),
  }),
  /** A party read the thread: the other party's open thread shows 'Read' under their last message. */
  "thread.read": declare<{ threadId: string; otherUserId: string }>()({
    live: (e) => threadUpdate(e.threadId, [e.otherUserId]),
  }),
  /**
   * The notice of a thread's unread messages, 5 minutes after the first (message-notices.ts).
   * The bell's entry's subject is the first unread message: one entry while that run of unread
   * messages lasts, a new one after the user read them and another came (decision 0034 claims
   * once a day per subject; the thread as subject would keep a new run silent for the rest of
   * the day). The e-mail has its own rule instead, one per thread and recipient in 30 minutes;
   * the push went with the message.
   */
  "message.received": declare<{
    threadId: string;
    firstUnreadId: string;
    recipientUserId: string;
    recipientEmail: string;
    /** Signs the Reply-To (users.reply_key_generation). */
    recipientReplyKeyGeneration: number;
    senderName: string;
    gigTitle: string;
    text: string;
    unread: number;
  }>()({
    group: "messages",
    to: (e) => ({ userId: e.recipientUserId }),
    bell: (e) => ({ subjectId: e.firstUnreadId, text: `New message from ${e.senderName} about "${e.gigTitle}"`, link: `/messages/${e.threadId}` }),
    emailApartFromBell: true,
    push: () => null,
    email: (e, { config }) => {
      const unsubscribe = listUnsubscribeUrl(config, { userId: e.recipientUserId, email: e.recipientEmail }, "messages");
      return {
        ...newMessageEmail({ publicUrl: config.publicUrl, senderName: e.senderName, gigTitle: e.gigTitle, threadId: e.threadId, text: e.text, unread: e.unread, unsubscribeUrl: unsubscribe, replyByEmail: config.inbound !== null }),
        listUnsubscribeUrl: unsubscribe,
        // Reply by e-mail (decision 0048): an address for this thread and recipient only, dated today.
        replyTo: config.inbound ? replyAddress(config.inbound, config.authSecret, e.threadId, { id: e.recipientUserId, replyKeyGeneration: e.recipientReplyKeyGeneration }) : undefined,
      };
    },
    readme: { subject: 'New message from {name} about "{gig title}"', to: "the other party of the conversation" },
  }),
  /** An e-mail about this thread went less than 30 minutes ago: the notice runs again at the window's end, summing up what came meanwhile. */
  "message.notice-deferred": declare<{ threadId: string; userId: string; afterSeconds: number }>()({
    jobs: (e) => [{ name: "messages.notify", data: { threadId: e.threadId, userId: e.userId }, startAfterSeconds: e.afterSeconds }],
  }),
  /** A reply by e-mail to an address past its days (conversations/inbound/): never posted; the way back is the thread. */
  "message.reply-expired": declare<{ threadId: string; userId: string; gigTitle: string }>()({
    to: (e) => ({ userId: e.userId }),
    email: (e, { config }) => replyExpiredEmail({ publicUrl: config.publicUrl, gigTitle: e.gigTitle, threadId: e.threadId }),
    readme: { subject: 'Your reply about "{gig title}" was not posted', to: "the party who replied" },
  }),

  // Lead alerts.
  /** A gig became visible (posted by a confirmed client, reopened): its lead alerts go once this commits (alerts/fan-out.ts). */
  "gig.visible": declare<{ gigId: string }>()({
    jobs: (e) => [leadAlertsJob({ id: e.gigId })],
  }),
  /**
   * A client verified phone `phone` (issue 49): the lead alerts of their open gigs with that
   * number run again, for the diggers who want only gigs with a verified phone.
   */
  "phone.verified": declare<{ userId: string; phone: string }>()({
    jobs: (e, { tx }) => verifiedPhoneAlertJobs(tx, e.userId, e.phone),
  }),
  /** The alerts job found the matching diggers: one `alerts.deliver` job per batch. */
  "lead.alerts-matched": declare<{ gigId: string; batches: string[][] }>()({
    jobs: (e) => e.batches.map((diggerIds) => ({ name: "alerts.deliver", data: { gigId: e.gigId, diggerIds } })),
  }),
  "lead.alert": declare<{ gig: AlertEmailGig; recipient: { userId: string; email: string } }>()({
    group: "lead-alerts",
    to: (e) => ({ userId: e.recipient.userId }),
    bell: (e) => ({ subjectId: e.gig.id, text: `New lead: ${e.gig.title}`, link: `/gig/${e.gig.id}` }),
    push: (e) => ({ title: `New lead: ${e.gig.title}`, body: `${e.gig.categoryName} · ${e.gig.location} · lead ${formatPrice(e.gig.leadPriceCents)}`, link: `/gig/${e.gig.id}` }),
    email: (e, { config }) => {
      const unsubscribe = listUnsubscribeUrl(config, e.recipient, "lead-alerts");
      return { ...leadAlertEmail({ publicUrl: config.publicUrl, gig: e.gig, unsubscribeUrl: unsubscribe }), listUnsubscribeUrl: unsubscribe };
    },
    readme: { subject: "New lead: {gig title}", to: "each digger whose Instant lead alerts match" },
  }),
  "lead.digest": declare<{ userId: string; email: string; total: number; gigs: AlertEmailGig[]; moreUrl: string }>()({
    to: (e) => ({ userId: e.userId, address: e.email }),
    email: (e, { config }) => {
      const unsubscribe = listUnsubscribeUrl(config, e, "lead-alerts");
      return { ...digestEmail({ publicUrl: config.publicUrl, total: e.total, gigs: e.gigs, moreUrl: e.moreUrl, unsubscribeUrl: unsubscribe }), listUnsubscribeUrl: unsubscribe };
    },
    readme: { subject: "Your lead alerts: {n} new gig(s)", to: "each digger on Daily digest with matches" },
  }),

  // The operator console (every one with its audit row). An account's standing is told by
  // e-mail only (a suspended user cannot open the bell), without the operator's reason: the
  // reason is the console's, never shown outside it.
  "account.suspended": declare<{ operatorId: string; userId: string; reason: string }>()({
    group: "account",
    mustNotMiss: true,
    to: (e) => ({ userId: e.userId }),
    audit: (e) => ({ operatorId: e.operatorId, action: "user.suspend", subjectType: "user", subjectId: e.userId, subjectUserId: e.userId, reason: e.reason }),
    email: (_e, { config }) => accountSuspendedEmail({ publicUrl: config.publicUrl }),
    readme: { subject: "Your Digs & Gigs account is suspended", to: "the account" },
  }),
  "account.reinstated": declare<{ operatorId: string; userId: string; reason: string }>()({
    group: "account",
    mustNotMiss: true,
    to: (e) => ({ userId: e.userId }),
    audit: (e) => ({ operatorId: e.operatorId, action: "user.reinstate", subjectType: "user", subjectId: e.userId, subjectUserId: e.userId, reason: e.reason }),
    email: (_e, { config }) => accountReinstatedEmail({ publicUrl: config.publicUrl }),
    readme: { subject: "Your Digs & Gigs account is active again", to: "the account" },
  }),
  /** Each decision is told: the audit row is the notice's subject. */
  "gig.hidden": declare<{ operatorId: string; gigId: string; gigTitle: string; ownerId: string; reason: string }>()({
    group: "account",
    to: (e) => ({ userId: e.ownerId }),
    audit: (e) => ({ operatorId: e.operatorId, action: "gig.hide", subjectType: "gig", subjectId: e.gigId, subjectUserId: e.ownerId, reason: e.reason }),
    bell: (e, { auditId }) => ({ subjectId: auditId!, text: `Your gig "${e.gigTitle}" was hidden by an operator. Reason: ${e.reason}`, link: "/my-gigs" }),
    email: (e) => gigHiddenEmail({ gigTitle: e.gigTitle, reason: e.reason }),
    readme: { subject: 'Your gig "{title}" was hidden', to: "the gig's client" },
  }),
  "gig.restored": declare<{ operatorId: string; gigId: string; gigTitle: string; ownerId: string }>()({
    group: "account",
    to: (e) => ({ userId: e.ownerId }),
    audit: (e) => ({ operatorId: e.operatorId, action: "gig.restore", subjectType: "gig", subjectId: e.gigId, subjectUserId: e.ownerId }),
    bell: (e, { auditId }) => ({ subjectId: auditId!, text: `Your gig "${e.gigTitle}" is shown again.`, link: "/my-gigs" }),
    email: (e) => gigRestoredEmail({ gigTitle: e.gigTitle }),
    readme: { subject: 'Your gig "{title}" is shown again', to: "the gig's client" },
  }),
  "credential.approved": declare<{ operatorId: string; documentId: string; userId: string; credential: CredentialKind; verifiedUntil: string; decidedAt: Date }>()({
    group: "account",
    to: (e) => ({ userId: e.userId }),
    audit: (e) => ({
      operatorId: e.operatorId,
      action: "credential.approve",
      subjectType: "credential",
      subjectId: e.documentId,
      subjectUserId: e.userId,
      details: { credential: e.credential, verifiedUntil: e.verifiedUntil },
    }),
    bell: (e, { time }) => ({
      subjectId: e.documentId,
      text: `Your proof of ${CREDENTIALS[e.credential]} was approved: your profile shows "${verifiedCredentialText(e.credential, time.date(e.decidedAt))}" until ${formatDate(e.verifiedUntil)}.`,
      link: CREDENTIALS_LINK,
    }),
    email: (e, { time }) =>
      credentialApprovedEmail({ label: CREDENTIALS[e.credential], badge: verifiedCredentialText(e.credential, time.date(e.decidedAt)), until: formatDate(e.verifiedUntil) }),
    readme: { subject: "{Credential}: verified", to: "the digger" },
  }),
  "credential.rejected": declare<{ operatorId: string; documentId: string; userId: string; credential: CredentialKind; reason: string }>()({
    group: "account",
    to: (e) => ({ userId: e.userId }),
    audit: (e) => ({
      operatorId: e.operatorId,
      action: "credential.reject",
      subjectType: "credential",
      subjectId: e.documentId,
      subjectUserId: e.userId,
      reason: e.reason,
      details: { credential: e.credential },
    }),
    bell: (e) => ({
      subjectId: e.documentId,
      text: `Your proof of ${CREDENTIALS[e.credential]} was not accepted. Reason: ${e.reason}`,
      link: CREDENTIALS_LINK,
    }),
    email: (e) => credentialRejectedEmail({ label: CREDENTIALS[e.credential], reason: e.reason }),
    readme: { subject: "{Credential}: your proof was not accepted", to: "the digger" },
  }),
  /** The daily job: an approval's date has passed. */
  "credential.lapsed": declare<{ documentId: string; userId: string; credential: CredentialKind; verifiedUntil: string }>()({
    group: "account",
    to: (e) => ({ userId: e.userId }),
    bell: (e) => ({
      subjectId: e.documentId,
      text: `The verification of your ${CREDENTIALS[e.credential]} credential ran until ${formatDate(e.verifiedUntil)}: your profile shows it as self-reported again.`,
      link: CREDENTIALS_LINK,
    }),
    email: (e) => credentialLapsedEmail({ label: CREDENTIALS[e.credential], until: formatDate(e.verifiedUntil) }),
    readme: { subject: "{Credential}: verification lapsed", to: "the digger" },
  }),
  /** An operator hides or keeps a reported review: of a digger, or (issue 51, side "client") a digger's review of a client; `reviewedUserId` the reviewed party. */
  "review.moderated": declare<{ operatorId: string; reviewId: string; reviewedUserId: string; hidden: boolean; reports: number; side?: "client" }>()({
    audit: (e) => ({
      operatorId: e.operatorId,
      action: e.hidden ? "review.hide" : "review.keep",
      subjectType: "review",
      subjectId: e.reviewId,
      subjectUserId: e.reviewedUserId,
      details: { reports: String(e.reports), ...(e.side ? { side: e.side } : {}) },
    }),
  }),
  /** An operator hides or keeps a reported message (the Messages queue; issue 32). */
  "message.moderated": declare<{ operatorId: string; messageId: string; senderUserId: string; hidden: boolean; reports: number }>()({
    audit: (e) => ({
      operatorId: e.operatorId,
      action: e.hidden ? "message.hide" : "message.keep",
      subjectType: "message",
      subjectId: e.messageId,
      subjectUserId: e.senderUserId,
      details: { reports: String(e.reports) },
    }),
  }),
  "profile.verified-badge": declare<{ operatorId: string; profileId: string; userId: string; granted: boolean; reason: string }>()({
    audit: (e) => ({
      operatorId: e.operatorId,
      action: e.granted ? "profile.verify" : "profile.unverify",
      subjectType: "profile",
      subjectId: e.profileId,
      subjectUserId: e.userId,
      reason: e.reason,
    }),
  }),
  /** `npm run operator` grants or revokes the role (the command line is the "operator"). */
  "operator.role": declare<{ operatorId: string; userId: string; granted: boolean }>()({
    audit: (e) => ({ operatorId: e.operatorId, action: e.granted ? "operator.grant" : "operator.revoke", subjectType: "user", subjectId: e.userId, subjectUserId: e.userId }),
  }),
};

export type EventKind = keyof typeof EVENTS;
/** The data an event of kind `K` carries. */
export type EventData<K extends EventKind> = DataOf<(typeof EVENTS)[K]>;
/**
 * Each kind of the bell's entries (the notifications table's `kind`): the events with a bell
 * entry of their own kind.
 */
export type NotificationKind = { [K in EventKind]: (typeof EVENTS)[K] extends { bell: unknown } ? ((typeof EVENTS)[K] extends { bellKind: string } ? never : K) : never }[EventKind];
