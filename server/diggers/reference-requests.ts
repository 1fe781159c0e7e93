/**
 * Reference contact requests (design.md section 1): a signed-in client asks for a
 * reference's contact; the digger who owns the reference approves or declines it at
 * /reference-requests. The digger is told of each new request, the client of the outcome
 * (the bell and an e-mail, in the transaction that records it).
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { REFERENCE_CONTACT_FAILED, referenceDecisionSchema, type referenceContactSchema } from "#core/digger-schemas.ts";
import { isUuid } from "#core/ids.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, diggerReferences, referenceContactRequests, users } from "../db/schema.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { REFERENCE_REQUESTS } from "./access.ts";

const REQUEST_MESSAGES = {
  duplicate: "You've already requested this reference contact",
  failed: REFERENCE_CONTACT_FAILED,
  sent: "Request sent! The digger will be notified.",
} as const;

type Mailing = Pick<AppServices, "db" | "emit">;

/** The action of /digger/{id}: the client asks for one of this digger's references. */
export async function requestReferenceContact(
  { db, emit }: Mailing,
  client: { id: string; name: string },
  diggerId: string,
  { referenceId }: z.output<typeof referenceContactSchema>,
): Promise<{ success: string }> {
  if (!isUuid(diggerId)) throw new AppError("invalid_input", REQUEST_MESSAGES.failed);

  // The reference must be this digger's; the digger id stored is the reference's own.
  const [reference] = await db
    .select({
      name: diggerReferences.referenceName,
      diggerId: diggerReferences.diggerId,
      diggerUserId: users.id,
    })
    .from(diggerReferences)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, diggerReferences.diggerId))
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(eq(diggerReferences.id, referenceId), eq(diggerReferences.diggerId, diggerId), isNull(diggerProfiles.hiddenAt)));
  if (!reference) throw new AppError("not_found", REQUEST_MESSAGES.failed);

  try {
    await db.transaction(async (tx) => {
      const [request] = await tx
        .insert(referenceContactRequests)
        .values({ referenceId, clientId: client.id, diggerId: reference.diggerId })
        .returning({ id: referenceContactRequests.id });
      await emit(tx, { kind: "reference.requested", requestId: request!.id, diggerUserId: reference.diggerUserId, clientName: client.name, referenceName: reference.name });
    });
  } catch (error) {
    if (isUniqueViolation(error, "reference_contact_requests_reference_consumer_key")) {
      throw new AppError("conflict", REQUEST_MESSAGES.duplicate);
    }
    throw error;
  }
  return { success: REQUEST_MESSAGES.sent };
}

export interface ReferenceRequestRow {
  id: string;
  clientName: string;
  referenceName: string;
  status: "pending" | "approved" | "rejected";
  createdAt: string;
}

/** The digger's requests, newest first, a page at a time. */
export async function listReferenceRequests(db: Database, diggerId: string, cursor: string | null): Promise<Page<ReferenceRequestRow>> {
  const q = referenceContactRequests;
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const rows = await db
    .select({
      id: q.id,
      clientName: users.name,
      referenceName: diggerReferences.referenceName,
      status: q.status,
      createdAt: exactTimestamp(q.createdAt),
    })
    .from(q)
    .innerJoin(users, eq(users.id, q.clientId))
    .innerJoin(diggerReferences, eq(diggerReferences.id, q.referenceId))
    .where(
      and(
        eq(q.diggerId, diggerId),
        after ? sql`(${q.createdAt}, ${q.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(q.createdAt), desc(q.id))
    .limit(PAGE_SIZE + 1);
  return toPage<ReferenceRequestRow>(rows, PAGE_SIZE, (row) => [row.createdAt, row.id]);
}

/** Approve or decline: only a pending request for one of the digger's references; the client is told in the same transaction. */
export async function resolveReferenceRequest(
  { db, emit }: Mailing,
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

/** /reference-requests, the page: the digger's requests, a page at a time. */
export const referenceRequestsPage = defineOperation({
  access: REFERENCE_REQUESTS,
  async run({ services, diggerId, url }) {
    return listReferenceRequests(services.db, diggerId, url.searchParams.get("cursor"));
  },
});

/** /reference-requests, Approve or Decline one request. */
export const decideReferenceRequest = defineOperation({
  access: REFERENCE_REQUESTS,
  input: referenceDecisionSchema,
  run: ({ services, diggerId, input }) => resolveReferenceRequest(services, diggerId, input),
});
