/**
 * The console's verification queue of credential proofs (issue 22, docs/decisions/0028):
 * proofs waiting for review, oldest first; Approve (until a date) or Reject (with a reason the
 * digger sees), each in one transaction with its audit row and the digger told. The daily job
 * `credentials.lapse` ends approvals whose date has passed (`lapseExpiredCredentials`).
 */
import { and, asc, eq, lt, sql, type SQL } from "drizzle-orm";
import {
  CREDENTIAL_MESSAGES,
  credentialDecisionSchema,
  todayUtc,
  type CredentialKind,
  type PendingProof,
} from "#core/credentials.ts";
import type { Database, Transaction } from "../db/client.ts";
import { credentialDocuments, diggerProfiles, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Emit } from "../events/emit.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";


/** Proofs waiting for review, the longest-waiting first, a page at a time (credential_documents_queue_idx). */
export async function pendingProofs(db: Database, cursorParam: string | null): Promise<Page<PendingProof>> {
  const c = credentialDocuments;
  const conditions: SQL[] = [eq(c.status, "pending")];
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  if (cursor) {
    conditions.push(sql`(${c.createdAt}, ${c.id}) > (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)`);
  }
  const rows = await db
    .select({
      id: c.id,
      at: exactTimestamp(c.createdAt),
      credential: c.credential,
      number: c.number,
      statedExpiry: c.statedExpiry,
      documentName: c.documentName,
      documentKey: c.documentKey,
      createdAt: c.createdAt,
      diggerId: diggerProfiles.id,
      handle: diggerProfiles.handle,
      userId: users.id,
      email: users.email,
    })
    .from(c)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, c.diggerId))
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(...conditions))
    .orderBy(asc(c.createdAt), asc(c.id))
    .limit(PAGE_SIZE + 1);
  const page = toPage(rows, PAGE_SIZE, (row) => [row.at, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(({ at: _at, documentKey, createdAt, ...row }) => ({
      ...row,
      isImage: !documentKey.endsWith(".pdf"),
      createdAt: createdAt.toISOString(),
    })),
  };
}

/** What an approval sets on the profile: the digger's own claim, now backed (shown as self-reported again once it lapses). */
const SELF_REPORTED: Record<CredentialKind, Partial<typeof diggerProfiles.$inferInsert>> = {
  insured: { isInsured: true },
  bonded: { isBonded: true },
  licensed: { isLicensed: "yes" },
};


export const decideCredential = defineOperation({
  access: operator,
  input: credentialDecisionSchema,
  async run({ services, user: operator, input: input }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      // The profile first, then the proof: the order an upload takes them in (no deadlock).
      const [owner] = await tx
        .select({ diggerId: diggerProfiles.id, userId: diggerProfiles.userId })
        .from(diggerProfiles)
        .where(sql`${diggerProfiles.id} = (select ${credentialDocuments.diggerId} from ${credentialDocuments} where ${credentialDocuments.id} = ${input.documentId})`)
        .for("no key update");
      const [doc] = owner
        ? await tx
            .select({ id: credentialDocuments.id, credential: credentialDocuments.credential, status: credentialDocuments.status })
            .from(credentialDocuments)
            .where(eq(credentialDocuments.id, input.documentId))
            .for("update")
        : [];
      if (!owner || !doc) throw new AppError("not_found", CREDENTIAL_MESSAGES.notFound);
      // Nobody checks their own credentials, operators included.
      if (owner.userId === operator.id) throw new AppError("forbidden", CREDENTIAL_MESSAGES.ownProof);
      if (doc.status !== "pending") throw new AppError("conflict", CREDENTIAL_MESSAGES.alreadyDecided);
      const { diggerId, userId } = owner;

      if (input.intent === "approve-credential") {
        // The approval it renews, if any, steps aside: one approved proof per credential (a unique index).
        await tx
          .update(credentialDocuments)
          .set({ status: "replaced" })
          .where(and(eq(credentialDocuments.diggerId, diggerId), eq(credentialDocuments.credential, doc.credential), eq(credentialDocuments.status, "approved")));
        const [approved] = await tx
          .update(credentialDocuments)
          .set({ status: "approved", verifiedUntil: input.verifiedUntil, decidedAt: sql`now()` })
          .where(eq(credentialDocuments.id, doc.id))
          .returning({ decidedAt: credentialDocuments.decidedAt });
        await tx.update(diggerProfiles).set(SELF_REPORTED[doc.credential]).where(eq(diggerProfiles.id, diggerId));
        await services.emit(tx, {
          kind: "credential.approved",
          operatorId: operator.id,
          documentId: doc.id,
          userId,
          credential: doc.credential,
          verifiedUntil: input.verifiedUntil,
          decidedAt: approved!.decidedAt!,
        });
        return { success: CREDENTIAL_MESSAGES.approved };
      }

      await tx
        .update(credentialDocuments)
        .set({ status: "rejected", decidedAt: sql`now()`, rejectionReason: input.reason })
        .where(eq(credentialDocuments.id, doc.id));
      await services.emit(tx, { kind: "credential.rejected", operatorId: operator.id, documentId: doc.id, userId, credential: doc.credential, reason: input.reason });
      return { success: CREDENTIAL_MESSAGES.rejected };
    });
  },
});

/** Approvals ended per batch; the job runs again until none is left. */
const LAPSE_BATCH = 200;

/**
 * The daily job: every approval whose date has passed (before today, UTC) lapses, and its
 * digger is told; the profile shows the credential as self-reported again. Returns how many.
 */
export async function lapseExpiredCredentials(services: { db: Database; emit: Emit }, today = todayUtc()): Promise<number> {
  let lapsed = 0;
  for (;;) {
    const count = await services.db.transaction(async (tx) => lapseBatch(tx, services.emit, today));
    lapsed += count;
    if (count < LAPSE_BATCH) return lapsed;
  }
}

async function lapseBatch(tx: Transaction, emit: Emit, today: string): Promise<number> {
  const c = credentialDocuments;
  const due = await tx
    .select({ id: c.id, credential: c.credential, verifiedUntil: c.verifiedUntil, userId: diggerProfiles.userId })
    .from(c)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, c.diggerId))
    .where(and(eq(c.status, "approved"), lt(c.verifiedUntil, today)))
    .orderBy(asc(c.verifiedUntil))
    .limit(LAPSE_BATCH)
    .for("update", { of: c, skipLocked: true });
  for (const doc of due) {
    await tx.update(c).set({ status: "lapsed" }).where(eq(c.id, doc.id));
    await emit(tx, { kind: "credential.lapsed", documentId: doc.id, userId: doc.userId, credential: doc.credential, verifiedUntil: doc.verifiedUntil! });
  }
  return due.length;
}
