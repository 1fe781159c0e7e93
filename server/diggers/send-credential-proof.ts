/**
 * /digger-registration?proof: a credential's proof sent (issue 22,
 * docs/decisions/0028-credential-proof.md), for a digger who has a profile: a PDF, JPEG or PNG,
 * up to 10 MB, checked by its content, kept in private storage under a random key. The form
 * carries a file: the route reads it with `readProfileForm`, after the access rule.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { z } from "zod";
import { CREDENTIAL_MESSAGES, credentialUploadSchema, MAX_DOCUMENT_BYTES } from "#core/credentials.ts";
import { credentialDocuments, diggerProfiles } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { CREDENTIAL_PROOF_UPLOAD } from "./access.ts";

const FOLDER = "private/credentials";
/** A scan of an A4 page at 600 dpi is about 35 megapixels. */
const MAX_DOCUMENT_PIXELS = 50_000_000;

/**
 * The proof's form: core's text fields, and the file sent and no larger than the limit. The
 * multipart reader (readProfileForm) has read it already; what it is, by its content, is checked
 * once it is read (`documentExtension`).
 */
const credentialProofSchema = credentialUploadSchema.extend({
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
async function uploadCredentialProof(
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

/** A credential's proof, for a digger who has a profile. */
export const sendCredentialProof = defineOperation({
  access: CREDENTIAL_PROOF_UPLOAD,
  input: credentialProofSchema,
  async run({ services, diggerId, input }) {
    return { ...(await uploadCredentialProof(services, diggerId, input)), intent: "proof" as const };
  },
});
