/**
 * The console's Payments section (issue 22): Approve refund / Reject on an overdue lead issue
 * awaiting an operator (a digger past their automatic approvals, docs/decisions/0031).
 */
import { z } from "zod";
import { ISSUE_DECISIONS, ISSUE_MESSAGES } from "#core/lead-issues.ts";
import { AppError } from "../errors.ts";
import { afterDecision, operatorDecision } from "../leads/resolve-issue.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

const ISSUE_DECIDED_BY_OPERATOR = { approve: "Refund approved. The digger and the client are told.", reject: "Refund rejected. The digger and the client are told." } as const;

const issueDecisionSchema = z.object({
  issueId: z.uuid({ error: ISSUE_MESSAGES.issueNotFound }),
  decision: z.enum(ISSUE_DECISIONS, { error: ISSUE_MESSAGES.updateFailed }),
});

/**
 * Approve refund / Reject on an overdue issue awaiting an operator (decision 0031): the same
 * decision as the client's (resolve-issue.ts), `decided_by` 'operator', audited in its
 * transaction; past the operators' deadline the automatic approval answers instead (409). Both
 * sides are told with the issue-decided notices; the refund goes to the provider after the commit.
 */
export const decideOverdueIssue = defineOperation({
  access: operator,
  input: issueDecisionSchema,
  async run({ services, user: operator, input: { issueId, decision } }): Promise<{ success: string }> {
    // Before anything is written: an operator never decides an issue they are a party to
    // (issue 30, finding 8). The decision's audit row is its event's ("issue.decided-by-operator").
    const resolved = await operatorDecision(services, operator.id, issueId, decision, (parties) =>
      refuseOwnRecord(operator.id, parties.diggerUserId, parties.clientUserId),
    );
    await afterDecision(services, resolved);
    if (resolved.decidedBy === "automatic") throw new AppError("conflict", ISSUE_MESSAGES.operatorDeadlinePassed);
    return { success: ISSUE_DECIDED_BY_OPERATOR[decision] };
  },
});
