/**
 * Who may open the operator console (/ops): an operator (users.operator_since, granted only by
 * `npm run operator`), and in production only with two-factor authentication on. Everyone
 * else, signed in or not, gets the 404 page: the console does not admit that it exists.
 * Every /ops loader and action starts here (docs/decisions/0026-operator-console.md).
 */
import { OPERATORS_OWN_RECORDS } from "#core/operator-actions.ts";
import type { SessionUser } from "#core/session-user.ts";
import { AppError } from "../errors.ts";
import type { RequestContext } from "../services.ts";

export const OPS_TWO_FACTOR_REQUIRED = "Turn on two-factor authentication to open the operator console.";

export interface Operator extends SessionUser {
  operator: true;
}

export async function requireOperator(context: RequestContext): Promise<Operator> {
  const { user } = await context.session();
  if (!user?.operator) throw new AppError("not_found", "Page not found");
  if (context.services.config.mode === "production" && !user.twoFactorEnabled) {
    // The operator already knows the console exists: tell them what opens it.
    throw new AppError("forbidden", OPS_TWO_FACTOR_REQUIRED, { redirectTo: "/account" });
  }
  return user as Operator;
}

/**
 * Whether the signed-in user may see what only operators see outside the console (a digger's
 * proof documents): the console's own rule, as a yes or no.
 */
export async function isActingOperator(context: RequestContext): Promise<boolean> {
  const { user } = await context.session();
  return Boolean(user?.operator) && (context.services.config.mode !== "production" || Boolean(user?.twoFactorEnabled));
}

/** Local mode: the banner that says production would ask for two-factor authentication. */
export function twoFactorNotice(context: RequestContext, operator: Operator): string | null {
  if (context.services.config.mode === "production" || operator.twoFactorEnabled) return null;
  return "Two-factor authentication is off for this account. In production the console opens only with two-factor authentication on.";
}

/**
 * No operator acts on a record about themself: their account, their profile (badge and
 * credentials), their gigs, reviews of them or by them, their purchases, refunds and issues.
 * Each action calls this, before it changes anything, with every user its record concerns
 * (both sides of a review or a purchase); the audit trail refuses a row whose subject is its
 * operator as well (audit.ts), for an action that forgot.
 */
export function refuseOwnRecord(operatorId: string, ...concerned: Array<string | null>): void {
  if (concerned.includes(operatorId)) throw new AppError("forbidden", OPERATORS_OWN_RECORDS);
}
