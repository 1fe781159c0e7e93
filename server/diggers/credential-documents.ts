/**
 * A digger's proof of a credential (issue 22, docs/decisions/0028-credential-proof.md):
 * uploaded from the profile editing page (send-credential-proof.ts), listed to its digger, and
 * served only to its digger and operators. Operators decide on it in the console (ops/credential-review.ts).
 */
import { desc, eq } from "drizzle-orm";
import type { OwnCredentialDocument } from "#core/credentials.ts";
import { isUuid } from "#core/ids.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { Database } from "../db/client.ts";
import { credentialDocuments, diggerProfiles } from "../db/schema.ts";
import { actsAsOperator, anyone } from "../guards.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import type { Storage } from "../storage/storage.ts";

/** A proof as its digger sees it (the profile editing page, the data export). */
export const PROOF_COLUMNS = {
  id: credentialDocuments.id,
  credential: credentialDocuments.credential,
  number: credentialDocuments.number,
  statedExpiry: credentialDocuments.statedExpiry,
  documentName: credentialDocuments.documentName,
  status: credentialDocuments.status,
  verifiedUntil: credentialDocuments.verifiedUntil,
  decidedAt: credentialDocuments.decidedAt,
  rejectionReason: credentialDocuments.rejectionReason,
  createdAt: credentialDocuments.createdAt,
};

/** The proofs of `userId`'s profile, newest first (a profile has a handful). */
export async function ownCredentialDocuments(db: Database, userId: string): Promise<OwnCredentialDocument[]> {
  const c = credentialDocuments;
  const rows = await db
    .select(PROOF_COLUMNS)
    .from(c)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, c.diggerId))
    .where(eq(diggerProfiles.userId, userId))
    .orderBy(desc(c.createdAt), desc(c.id))
    .limit(50);
  return rows.map((row) => ({ ...row, decidedAt: row.decidedAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() }));
}

/**
 * The file of proof `id` for `viewer`: its digger, or an operator (`isOperator`: the console's
 * rule, `actsAsOperator`). Anyone else, and any id that is not a proof's, gets
 * 404: the answer never tells whether the proof exists. Not an image: a download, never shown.
 */
async function credentialDocumentResponse(
  { db, storage }: { db: Database; storage: Storage },
  viewer: SessionUser | null,
  isOperator: boolean,
  id: string,
): Promise<Response> {
  const notFound = () => new AppError("not_found", "Page not found");
  if (!viewer || !isUuid(id)) throw notFound();
  const [doc] = await db
    .select({ key: credentialDocuments.documentKey, name: credentialDocuments.documentName, ownerId: diggerProfiles.userId })
    .from(credentialDocuments)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, credentialDocuments.diggerId))
    .where(eq(credentialDocuments.id, id));
  if (!doc || (doc.ownerId !== viewer.id && !isOperator)) throw notFound();
  const file = await storage.get(doc.key);
  if (!file) throw notFound();
  const image = file.contentType.startsWith("image/");
  // RFC 6266: an ASCII fallback and the UTF-8 name.
  const ascii = doc.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const disposition = `${image ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(doc.name)}`;
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": disposition,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}

/** /credentials/{id}/document: open to anyone's request, answered as `credentialDocumentResponse` says. */
export const credentialDocument = defineOperation({
  access: anyone,
  async run({ services, user, params }) {
    return credentialDocumentResponse(services, user, actsAsOperator(services.config, user), params.id ?? "");
  },
});
