/**
 * A digger's proof of a credential (issue 22, docs/decisions/0028-credential-proof.md):
 * uploaded from the profile editing page (a PDF, JPEG or PNG, up to 10 MB, checked by its
 * content), kept in private storage under a random key, listed to its digger, and served only
 * to its digger and operators. Operators decide on it in the console (ops/credential-review.ts).
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { z } from "zod";
import {
  CREDENTIAL_MESSAGES,
  credentialUploadSchema,
  MAX_DOCUMENT_BYTES,
  type OwnCredentialDocument,
} from "#core/credentials.ts";
import { isUuid } from "#core/ids.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { Database } from "../db/client.ts";
import { credentialDocuments, diggerProfiles } from "../db/schema.ts";
import { actsAsOperator, anyone } from "../guards.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import type { AppServices } from "../context.ts";
import type { Storage } from "../storage/storage.ts";

const FOLDER = "private/credentials";
/** A scan of an A4 page at 600 dpi is about 35 megapixels. */
const MAX_DOCUMENT_PIXELS = 50_000_000;

/**
 * The proof's form: core's text fields, and the file sent and no larger than the limit. The
 * multipart reader (readProfileForm) has read it already; what it is, by its content, is checked
 * once it is read (`documentExtension`).
 */
export const credentialProofSchema = credentialUploadSchema.extend({
  credentialDocument: z
    .custom<File>((value) => value instanceof File && value.size > 0, { error: CREDENTIAL_MESSAGES.document })
    .refine((file) => file.size <= MAX_DOCUMENT_BYTES, CREDENTIAL_MESSAGES.documentSize),
});

/** The file's type by its first bytes and, for an image, by decoding its header: never by its name or the browser's claim. */
async function documentExtension(data: Buffer): Promise<"pdf" | "jpg" | "png" | null> {
  if (data.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  try {
    // Shown in the operator's queue: an image no browser should be asked to decode is refused.
    const { format, width = 0, height = 0 } = await sharp(data, { limitInputPixels: MAX_DOCUMENT_PIXELS }).metadata();
    if (width * height > MAX_DOCUMENT_PIXELS) return null;
    if (format === "jpeg") return "jpg";
    if (format === "png") return "png";
  } catch {
    // Not an image sharp can read.
  }
  return null;
}

/**
 * The uploaded file's name, kept for the download: its last path part, printable, at most 200
 * characters, and always the extension of what it is (never the uploader's "run.cmd").
 */
function cleanFileName(name: string, extension: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "")
    .replace(/\.[^.]*$/, "")
    .replace(/[^\p{L}\p{N} ._()-]/gu, "")
    .trim()
    .slice(0, 190);
  return `${base || "document"}.${extension}`;
}

/**
 * Stores the proof sent (`credentialProofSchema`'s fields) for profile `diggerId` (its digger's,
 * checked by the caller). A proof still waiting for review for the same credential is replaced
 * (its row and file go): the digger may have sent the wrong file.
 */
export async function uploadCredentialProof(
  { db, storage, logger }: Pick<AppServices, "db" | "storage" | "logger">,
  diggerId: string,
  input: z.output<typeof credentialProofSchema>,
): Promise<{ success: string }> {
  const data = Buffer.from(await input.credentialDocument.arrayBuffer());
  const extension = await documentExtension(data);
  if (!extension) {
    throw new AppError("invalid_input", CREDENTIAL_MESSAGES.documentType, { fieldErrors: { credentialDocument: CREDENTIAL_MESSAGES.documentType } });
  }

  // A random name: the key says nothing of whose file it is, and cannot be guessed.
  const key = `${FOLDER}/${randomBytes(20).toString("hex")}.${extension}`;
  await storage.put(key, data);
  let replacedKeys: string[];
  try {
    replacedKeys = await db.transaction(async (tx) => {
      // Two uploads at once for one profile take turns: the second replaces the first, never
      // trips over the one-waiting-proof index.
      await tx.select({ id: diggerProfiles.id }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)).for("no key update");
      const replaced = await tx
        .delete(credentialDocuments)
        .where(
          and(
            eq(credentialDocuments.diggerId, diggerId),
            eq(credentialDocuments.credential, input.credential),
            eq(credentialDocuments.status, "pending"),
          ),
        )
        .returning({ key: credentialDocuments.documentKey });
      await tx.insert(credentialDocuments).values({
        diggerId,
        credential: input.credential,
        number: input.credentialNumber,
        statedExpiry: input.credentialExpiry,
        documentKey: key,
        documentName: cleanFileName(input.credentialDocument.name, extension),
      });
      return replaced.map((row) => row.key);
    });
  } catch (error) {
    await storage.delete(key).catch(() => {});
    throw error;
  }
  await Promise.all(replacedKeys.map((old) => storage.delete(old))).catch((err: unknown) =>
    logger.warn({ err }, "could not remove a replaced credential document"),
  );
  return { success: CREDENTIAL_MESSAGES.uploaded };
}

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
export async function credentialDocumentResponse(
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
