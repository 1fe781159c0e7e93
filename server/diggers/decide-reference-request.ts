/**
 * /reference-requests, Approve or Decline one request (design.md section 1): the digger who
 * owns the reference answers; the client is told of the outcome (the bell and an e-mail, in the
 * transaction that records it).
 */
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { referenceDecisionSchema } from "#core/digger-schemas.ts";
import { diggerProfiles, diggerReferences, referenceContactRequests } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { REFERENCE_REQUESTS } from "./access.ts";

/** Approve or decline: only a pending request for one of the digger's references; the client is told in the same transaction. */
async function resolveReferenceRequest(
  { db, emit }: Pick<AppServices, "db" | "emit">,
  diggerId: string,
  { requestId, decision }: z.output<typeof referenceDecisionSchema>,
): Promise<{ success: string }> {
  const q = referenceContactRequests;
  const approved = decision === "approve";
  const done = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(q)
      .set({ status: approved ? "approved" : "rejected", resolvedAt: sql`now()` })
      .where(and(eq(q.id, requestId), eq(q.diggerId, diggerId), eq(q.status, "pending")))
      .returning({ clientId: q.clientId, referenceId: q.referenceId });
    if (!updated) return false;
    const [details] = await tx
      .select({ referenceName: diggerReferences.referenceName, handle: diggerProfiles.handle })
      .from(diggerReferences)
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, diggerReferences.diggerId))
      .where(eq(diggerReferences.id, updated.referenceId));
    if (!details) return true;
    await emit(tx, { kind: "reference.decided", requestId, clientUserId: updated.clientId, handle: details.handle, referenceName: details.referenceName, approved, diggerId });
    return true;
  });
  if (!done) {
    const [existing] = await db.select({ id: q.id }).from(q).where(and(eq(q.id, requestId), eq(q.diggerId, diggerId)));
    if (existing) throw new AppError("conflict", "This request has already been answered");
    throw new AppError("not_found", "Request not found");
  }
  return { success: approved ? "Request approved" : "Request declined" };
}

/** /reference-requests, Approve or Decline one request. */
export const decideReferenceRequest = defineOperation({
  access: REFERENCE_REQUESTS,
  input: referenceDecisionSchema,
  run: ({ services, diggerId, input }) => resolveReferenceRequest(services, diggerId, input),
});
