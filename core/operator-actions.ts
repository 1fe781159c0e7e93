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
  "credential.approve": "Approved credential",
  "credential.reject": "Rejected credential",
  "profile.verify": "Granted Verified badge",
  "profile.unverify": "Removed Verified badge",
  "refund.retry": "Retried refund",
  "operator.grant": "Granted operator role",
  "operator.revoke": "Revoked operator role",
} as const;

export type OperatorActionName = keyof typeof OPERATOR_ACTIONS;

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
  reason: string | null;
  details: Record<string, string>;
}
