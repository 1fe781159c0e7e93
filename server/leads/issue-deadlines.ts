/**
 * Refund decisions that cannot stall (docs/decisions/0020-refund-deadlines.md): the jobs
 * behind an issue's `respond_by`.
 * - `issues.auto-approve`, every 10 minutes: each pending issue past its deadline is approved
 *   through the same decision as the client's (resolve-issue.ts), each in its own transaction
 *   with the row locked, refunded once, and both sides are told (the bell and e-mail). A digger
 *   gets AUTO_APPROVALS_PER_DIGGER automatic approvals in AUTO_APPROVAL_WINDOW_DAYS; past that
 *   the issue goes to the operators' Payments queue, and is approved once their own deadline
 *   has passed too (docs/decisions/0031-automatic-approval-bound.md).
 * - `issues.remind`, enqueued with the report for 24 hours before the deadline: e-mails the
 *   client while the issue is still pending.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { gigs, leadIssues, leadPurchases } from "../db/schema.ts";
import type { AppServices } from "../context.ts";
import { clientUser, withPurchaseParties } from "./purchase-parties.ts";
import { afterDecision, autoApproveIssue, dueForSettling, ESCALATED } from "./resolve-issue.ts";

/** Overdue issues read per round; rounds go on while a full one made progress. */
const BATCH = 100;

type Services = Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "emit" | "config">;

/**
 * Settles every pending issue whose `respond_by` has passed (and, when it went to the
 * operators, whose `operator_respond_by` has passed too); returns how many this call approved
 * (an issue sent to the operators is not counted). Safe to run twice at once (two servers, an
 * overlapping slot): an issue locked by one run is skipped by the other, and one already
 * decided is left alone.
 */
export async function autoApproveOverdueIssues(services: Services): Promise<number> {
  let approved = 0;
  for (;;) {
    const due = await services.db
      .select({ id: leadIssues.id })
      .from(leadIssues)
      .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
      .where(and(dueForSettling, eq(leadPurchases.status, "completed")))
      .orderBy(asc(leadIssues.respondBy), asc(leadIssues.id))
      .limit(BATCH);
    let progressed = 0;
    for (const { id } of due) {
      const resolved = await autoApproveIssue(services, id);
      if (!resolved) continue;
      progressed += 1;
      if (resolved === ESCALATED) continue;
      approved += 1;
      await afterDecision(services, resolved);
    }
    if (due.length < BATCH || progressed === 0) return approved;
  }
}

/** Tells the client of issue `issueId` that its deadline is near; false when it is no longer pending (or past due). */
export async function remindClient(services: Pick<AppServices, "db" | "emit">, issueId: string): Promise<boolean> {
  const { db, emit } = services;
  return db.transaction(async (tx) => {
    const [issue] = await withPurchaseParties(
      tx
        .select({ issueType: leadIssues.issueType, respondBy: leadIssues.respondBy, gigTitle: gigs.title, clientId: clientUser.id })
        .from(leadIssues)
        .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
        .$dynamic(),
    ).where(and(eq(leadIssues.id, issueId), eq(leadIssues.status, "pending"), gt(leadIssues.respondBy, sql`now()`)));
    if (!issue) return false;
    await emit(tx, { kind: "issue.reminder", issueId, clientUserId: issue.clientId, gigTitle: issue.gigTitle, issueType: issue.issueType, respondBy: issue.respondBy });
    return true;
  });
}
