import { CREDENTIALS, type CredentialKind } from "./credentials.ts";
import { formatDate } from "./dates.ts";

/**
 * Every action an operator (or the operator command) can take, as the audit trail names it,
 * with the words the Audit log shows (issue 22). A new action is added here first.
 */
export const OPERATOR_ACTIONS = {
  "user.suspend": "Suspended account",
  "user.reinstate": "Reinstated account",
  "gig.hide": "Hid gig",
  "gig.restore": "Restored gig",
  "review.hide": "Hid review",
  "review.keep": "Kept review",
  "message.hide": "Hid message",
  "message.keep": "Kept message",
  "credential.approve": "Approved credential",
  "credential.reject": "Rejected credential",
  "profile.verify": "Granted Verified badge",
  "profile.unverify": "Removed Verified badge",
  "refund.retry": "Retried refund",
  "issue.approve": "Approved an overdue issue's refund",
  "issue.reject": "Rejected an overdue issue's refund",
  "fake_request.approve": "Approved a fake-request report (gig taken down, buyers refunded)",
  "fake_request.reject": "Rejected a fake-request report",
  "guarantee.approve": "Approved a reply guarantee refund",
  "guarantee.decline": "Declined a reply guarantee refund",
  "operator.grant": "Granted operator role",
  "operator.revoke": "Revoked operator role",
} as const;

export type OperatorActionName = keyof typeof OPERATOR_ACTIONS;

/** No operator acts on a record about themself (issue 30, finding 8): the answer, 403. */
export const OPERATORS_OWN_RECORDS = "Operators cannot act on their own records.";

/**
 * The Audit log's Action filter names each action as what the operator does ("Hide a gig"),
 * never with an entry's words ("Hid gig"): a search for an entry's words finds entries only.
 */
export const OPERATOR_ACTION_FILTERS: Record<OperatorActionName, string> = {
  "user.suspend": "Suspend an account",
  "user.reinstate": "Reinstate an account",
  "gig.hide": "Hide a gig",
  "gig.restore": "Restore a gig",
  "review.hide": "Hide a review",
  "review.keep": "Keep a review",
  "message.hide": "Hide a message",
  "message.keep": "Keep a message",
  "credential.approve": "Approve a proof",
  "credential.reject": "Reject a proof",
  "profile.verify": "Grant the Verified badge",
  "profile.unverify": "Remove the Verified badge",
  "refund.retry": "Retry a refund",
  "issue.approve": "Approve an overdue issue",
  "issue.reject": "Reject an overdue issue",
  "fake_request.approve": "Approve a fake-request report",
  "fake_request.reject": "Reject a fake-request report",
  "guarantee.approve": "Approve a reply guarantee refund",
  "guarantee.decline": "Decline a reply guarantee refund",
  "operator.grant": "Grant the operator role",
  "operator.revoke": "Revoke the operator role",
};

export const isOperatorAction = (value: string): value is OperatorActionName => Object.hasOwn(OPERATOR_ACTIONS, value);

/** An audit row as the console shows it (the Audit log page, a user's operator history). */
export interface AuditEntry {
  id: string;
  createdAt: string;
  action: OperatorActionName;
  /** The operator's name and e-mail; "Command line" for `npm run operator`; null once the account is gone. */
  operator: string | null;
  subjectType: string;
  subjectId: string;
  subjectUserId: string | null;
  /** The affected user's name and e-mail, for the log (only operators see it). */
  subjectUser: string | null;
  /** For an action on a gig: its title (null once the gig is gone). */
  gigTitle: string | null;
  reason: string | null;
  details: Record<string, string>;
}

const credentialName = (value: string | undefined) => (value && Object.hasOwn(CREDENTIALS, value) ? CREDENTIALS[value as CredentialKind] : value);

/**
 * What else an action set, in words: "Licensed, verified until Jun 30, 2027", "Closed 2 reports".
 * A key this does not know yet is shown as it was written, so that nothing is left out.
 */
export function auditDetailsText(details: Record<string, string>): string | null {
  const { credential, verifiedUntil, reports, ...rest } = details;
  const parts: string[] = [];
  const named = credentialName(credential);
  if (named && verifiedUntil) parts.push(`${named}, verified until ${formatDate(verifiedUntil)}`);
  else if (named) parts.push(named);
  else if (verifiedUntil) parts.push(`Verified until ${formatDate(verifiedUntil)}`);
  if (reports) parts.push(`Closed ${reports} ${reports === "1" ? "report" : "reports"}`);
  parts.push(...Object.entries(rest).map(([key, value]) => `${key}: ${value}`));
  return parts.length > 0 ? parts.join(" · ") : null;
}
