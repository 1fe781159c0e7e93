/**
 * What the thread's visit operations share (issue 50): the thread's party in the role a step
 * needs (403 for the other party, the 404 page for anyone else: access.ts), the rule that two
 * people with a block between them, or a suspended account, arrange no visit, and a proposal or
 * a visit of this thread, locked for its change (404 when it is another thread's, or no id).
 */
import { and, eq } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { VISIT_ANSWERS } from "#core/visits.ts";
import type { Transaction } from "../../db/client.ts";
import { visitProposals, visits } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { threadParty, type ThreadParty } from "../access.ts";
import { partyStanding } from "../party-standing.ts";
import { threadLead, type ThreadLead } from "../thread-lead.ts";

/**
 * The thread (locked) as its `role` party, with its lead: 403 with `refusal` for the other
 * party. `arranging`: refused too when a block stands either way, the caller is suspended, or
 * the other party's account is gone.
 */
export async function visitLead(tx: Transaction, userId: string, threadId: string, role: ThreadParty["role"], refusal: string, arranging = true): Promise<ThreadLead> {
  const party = await threadParty(tx, userId, threadId, true);
  if (party.role !== role) throw new AppError("forbidden", refusal);
  const lead = await threadLead(tx, userId, threadId, role);
  if (arranging) await refuseUnarrangeable(tx, party);
  return lead;
}

/**
 * A suspended caller, a suspended or deleted other party, or a block between the two: no visit is
 * arranged (a suspended digger must not learn when to come to the client's door).
 */
async function refuseUnarrangeable(tx: Transaction, party: ThreadParty): Promise<void> {
  const standing = await partyStanding(tx, party);
  if (standing.meDeleted || standing.meSuspended) throw new AppError("forbidden", VISIT_ANSWERS.suspended);
  if (standing.otherGone || standing.otherSuspended) throw new AppError("conflict", VISIT_ANSWERS.blocked);
  if (standing.blocked) throw new AppError("forbidden", VISIT_ANSWERS.blocked);
}

/** Proposal `proposalId` of thread `threadId`, locked: 404 when it is not the thread's. */
export async function proposalOfThread(tx: Transaction, threadId: string, proposalId: unknown) {
  if (!isUuid(proposalId)) throw new AppError("not_found", VISIT_ANSWERS.notFound);
  const [proposal] = await tx
    .select()
    .from(visitProposals)
    .where(and(eq(visitProposals.id, proposalId), eq(visitProposals.threadId, threadId)))
    .for("update");
  if (!proposal) throw new AppError("not_found", VISIT_ANSWERS.notFound);
  return proposal;
}

/** Visit `visitId` of thread `threadId`, locked: 404 when it is not the thread's. */
export async function visitOfThread(tx: Transaction, threadId: string, visitId: unknown) {
  if (!isUuid(visitId)) throw new AppError("not_found", VISIT_ANSWERS.notFound);
  const [visit] = await tx
    .select()
    .from(visits)
    .where(and(eq(visits.id, visitId), eq(visits.threadId, threadId)))
    .for("update");
  if (!visit) throw new AppError("not_found", VISIT_ANSWERS.notFound);
  return visit;
}
