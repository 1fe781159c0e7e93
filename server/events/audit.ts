/**
 * The audit trail: every operator action is written here, in the transaction of the action
 * itself, so that no action happens without its row (and no row without its action). The
 * table refuses UPDATE, DELETE and TRUNCATE (migration 0021).
 */
import { OPERATORS_OWN_RECORDS, type OperatorActionName } from "#core/operator-actions.ts";
import type { Database } from "../db/client.ts";
import { operatorActions } from "../db/schema.ts";
import { AppError } from "../errors.ts";

/**
 * No operator acts on a record about themself: their account, their profile (badge and
 * credentials), their gigs, reviews of them or by them, their purchases, refunds and issues.
 * Each action calls this, before it changes anything, with every user its record concerns
 * (both sides of a review or a purchase); the audit trail refuses a row whose subject is its
 * operator as well (below), for an action that forgot.
 */
export function refuseOwnRecord(operatorId: string, ...concerned: Array<string | null>): void {
  if (concerned.includes(operatorId)) throw new AppError("forbidden", OPERATORS_OWN_RECORDS);
}

type SubjectType = (typeof operatorActions.subjectType.enumValues)[number];

export interface OperatorActionInput {
  operatorId: string;
  /** One of core/operator-actions.ts, e.g. "user.suspend", "gig.hide", "credential.approve". */
  action: OperatorActionName;
  subjectType: SubjectType;
  subjectId: string;
  /** The user the action is about (shown on their page, included in their data export). */
  subjectUserId: string | null;
  reason?: string | null;
  details?: Record<string, string>;
}

/** Returns the row's id: a notice of the decision has it as its subject (each decision is told). */
export async function recordOperatorAction(tx: Database, input: OperatorActionInput): Promise<string> {
  refuseOwnRecord(input.operatorId, input.subjectUserId);
  const [row] = await tx.insert(operatorActions).values({
    operatorId: input.operatorId,
    action: input.action,
    subjectType: input.subjectType,
    subjectId: input.subjectId,
    subjectUserId: input.subjectUserId,
    reason: input.reason ?? null,
    details: input.details ?? {},
  }).returning({ id: operatorActions.id });
  return row!.id;
}
