/**
 * /digger/{id}: a signed-in client asks for a reference's contact (design.md section 1). The
 * digger is told of each new request (the bell and an e-mail, in the transaction that records
 * it) and answers at /reference-requests (decide-reference-request.ts).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { REFERENCE_CONTACT_FAILED, referenceContactSchema } from "#core/digger-schemas.ts";
import { isUuid } from "#core/ids.ts";
import { diggerProfiles, diggerReferences, referenceContactRequests, users } from "../db/schema.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { REFERENCE_CONTACT } from "./access.ts";

const REQUEST_MESSAGES = {
  duplicate: "You've already requested this reference contact",
  failed: REFERENCE_CONTACT_FAILED,
  sent: "Request sent! The digger will be notified.",
} as const;

/** The client asks for one of this digger's references. */
async function requestReferenceContact(
  { db, emit }: Pick<AppServices, "db" | "emit">,
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

export const askReferenceContact = defineOperation({
  access: REFERENCE_CONTACT,
  input: referenceContactSchema,
  run: ({ services, user, params, input }) => requestReferenceContact(services, user, params.id ?? "", input),
});
