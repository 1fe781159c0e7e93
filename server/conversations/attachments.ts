/**
 * A message's attachments (issue 32, docs/decisions/0047-message-attachments.md): up to 5 per
 * message, each a JPEG, PNG, WebP or PDF of at most 10 MB, its type read from its first bytes.
 *
 * The send form's multipart body is parsed as a stream (busboy) under the thread route's body
 * allowance (BODY_LIMITS in server/app.ts): each file is held alone (at most 10 MB), checked,
 * and stored privately before the next is read; the body is never held whole. The bytes go to
 * storage first and the rows are written in the message's transaction (send.ts); whatever goes
 * wrong after a file is stored deletes it again (storage.ts's `discardFiles`). Images are stored
 * without their metadata (image-metadata.ts, decision 0055), PDFs written again without their
 * metadata and scripts (pdf-rewrite.ts, decision 0068).
 *
 * Served through one route (/messages/{threadId}/attachments/{id}) to the thread's two parties
 * while the message is shown, and to operators when the message was reported; everyone else
 * gets the 404 page.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import {
  ATTACHMENT_FIELD,
  ATTACHMENT_TEXTS,
  ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_NAME,
  MAX_ATTACHMENTS,
  type AttachmentType,
  type MessageAttachmentView,
} from "#core/message-attachments.ts";
import { isUuid } from "#core/ids.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { Database, Transaction } from "../db/client.ts";
import { messageAttachments, messageReports, messages, threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { NUL_REFUSED } from "../security/nul-bytes.ts";
import { discardFiles, type Storage, type UploadedFile } from "../storage/storage.ts";
import { stripImageMetadata } from "./image-metadata.ts";
import { rewritePdf } from "./pdf-rewrite.ts";

const FOLDER = "private/messages";

/** A file already checked and stored, waiting for its message's row (`sendMessage`'s `attachments`). */
/** A message's attachment, checked and stored: one of the types a message may carry. */
export interface StoredAttachment extends UploadedFile {
  contentType: AttachmentType;
}

/** The files the thread's form reader stored (the operation's `files`), as attachments: each of a type a message may carry. */
export function asAttachments(files: readonly UploadedFile[]): StoredAttachment[] {
  return files.map((file) => {
    if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.contentType)) throw new Error(`not an attachment's type: ${file.contentType}`);
    return file as StoredAttachment;
  });
}

const refusal = (text: string) => () => new AppError("invalid_input", text, { fieldErrors: { [ATTACHMENT_FIELD]: text } });
const refused = refusal(ATTACHMENT_TEXTS.refused);
const pdfUnreadable = refusal(ATTACHMENT_TEXTS.pdfUnreadable);
const unreadable = (cause?: unknown) => new AppError("invalid_input", "The form could not be read. Please try again.", { cause });
/** A field over its size, or too many fields or parts: the form's text limits, as the body limit words them. */
const tooLarge = () => new AppError("invalid_input", "The form is too large.");
const notFound = () => new AppError("not_found", "Page not found");

const EXTENSIONS: Record<AttachmentType, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "application/pdf": "pdf" };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The file's type by its magic number, or null: not one we take, whatever its name or declared type say. */
function attachmentTypeOf(data: Buffer): AttachmentType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return "image/png";
  if (data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  if (data.subarray(0, 5).toString("latin1") === "%PDF-") return "application/pdf";
  return null;
}

/** The name kept for the link and the download: its last path part, printable, and the extension of what it is. */
function cleanFileName(name: string, type: AttachmentType): string {
  const extension = EXTENSIONS[type];
  const base = (name.split(/[\\/]/).pop() ?? "")
    .replace(/\.[^.]*$/, "")
    .replace(/[^\p{L}\p{N} ._()-]/gu, "")
    .trim()
    .slice(0, MAX_ATTACHMENT_NAME - extension.length - 1);
  return `${base || (type === "application/pdf" ? "document" : "image")}.${extension}`;
}

/**
 * Checks one file by its bytes and stores it privately under a random key. Also the entry for
 * files that did not come through the web form (mail replies): `declaredType` is the sender's
 * claim, when there is one, and must be one of ours too.
 */
export async function storeAttachment(storage: Storage, name: string, data: Buffer, declaredType?: string): Promise<StoredAttachment> {
  if (data.length === 0 || data.length > MAX_ATTACHMENT_BYTES) throw refused();
  const declared = declaredType?.split(";")[0]?.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream" && !(ATTACHMENT_TYPES as readonly string[]).includes(declared)) throw refused();
  const contentType = attachmentTypeOf(data);
  if (!contentType) throw refused();
  // Images lose their metadata (GPS position, camera, XMP) before they are stored, PDFs their
  // metadata and scripts (pdf-rewrite.ts); a file whose structure cannot be walked is not one of
  // ours. The result is checked against the limit again (a PDF's plain objects may take more room).
  let stored: Buffer | null;
  if (contentType === "application/pdf") {
    stored = await rewritePdf(data);
    if (!stored) throw pdfUnreadable();
  } else stored = stripImageMetadata(data, contentType);
  if (!stored || stored.length > MAX_ATTACHMENT_BYTES) throw refused();
  const key = `${FOLDER}/${randomBytes(20).toString("hex")}.${EXTENSIONS[contentType]}`;
  await storage.put(key, stored);
  return { key, name: cleanFileName(name, contentType), contentType, sizeBytes: stored.length };
}

/** Deletes stored files whose message was never written (a refusal, a failed transaction). */

const FIELD_LIMITS = { fields: 30, fieldSize: 100 * 1024, parts: 40 };

/**
 * The thread page's form: its fields, and for a send (the `intent` field comes before the files,
 * as the form orders them) its files, checked and stored. A refused file refuses the lot: the
 * files stored so far are deleted, the rest of the body is read and dropped.
 */
export async function readMessageForm(storage: Storage, request: Request): Promise<{ form: FormData; files: StoredAttachment[] }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    try {
      return { form: await request.formData(), files: [] };
    } catch (error) {
      throw unreadable(error);
    }
  }
  if (!request.body) throw unreadable();
  const form = new FormData();
  const stored: StoredAttachment[] = [];
  let failure: AppError | null = null;
  let pending = Promise.resolve();
  const fail = (error: AppError) => {
    failure ??= error;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: { "content-type": contentType },
          // Busboy marks a file truncated once it reaches the limit: one byte more lets exactly 10 MB through.
          limits: { ...FIELD_LIMITS, files: MAX_ATTACHMENTS, fileSize: MAX_ATTACHMENT_BYTES + 1 },
          // Browsers send a file's name as UTF-8.
          defParamCharset: "utf8",
        });
      } catch (error) {
        reject(unreadable(error));
        return;
      }
      parser.on("field", (name, value, info) => {
        if (info.valueTruncated || info.nameTruncated) fail(tooLarge());
        // Refused here rather than by security/nul-bytes.ts, which leaves this body to the stream.
        else if (name.includes("\u0000") || value.includes("\u0000")) fail(new AppError("invalid_input", NUL_REFUSED));
        else form.append(name, value);
      });
      parser.on("file", (name, file, info) => {
        // A file input left empty still sends a part: no name, no bytes.
        const chunks: Buffer[] = [];
        let size = 0;
        file.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (!failure) chunks.push(chunk);
        });
        file.on("end", () => {
          if (failure) return;
          const truncated = (file as unknown as { truncated?: boolean }).truncated === true;
          if (size === 0 && !info.filename) return;
          if (name !== ATTACHMENT_FIELD || form.get("intent") !== "send" || truncated) {
            fail(name === ATTACHMENT_FIELD ? refused() : unreadable());
            return;
          }
          const data = Buffer.concat(chunks, size);
          chunks.length = 0;
          // One file at a time to storage, in the order sent.
          pending = pending.then(async () => {
            if (failure) return;
            try {
              stored.push(await storeAttachment(storage, info.filename ?? "", data, info.mimeType));
            } catch (error) {
              fail(error instanceof AppError ? error : unreadable(error));
            }
          });
        });
      });
      parser.on("filesLimit", () => fail(refused()));
      parser.on("partsLimit", () => fail(tooLarge()));
      parser.on("fieldsLimit", () => fail(tooLarge()));
      parser.on("error", (error) => reject(unreadable(error)));
      parser.on("close", () => resolve());
      const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
      body.on("error", (error) => reject(unreadable(error)));
      body.pipe(parser);
    });
    await pending;
    if (failure) throw failure;
    return { form, files: stored };
  } catch (error) {
    await pending.catch(() => {});
    await discardFiles(storage, stored);
    throw error;
  }
}

/** In the message's transaction: the rows of its stored files, in the order sent. */
export async function insertAttachments(tx: Transaction, messageId: string, attachments: StoredAttachment[]): Promise<void> {
  if (attachments.length === 0) return;
  if (attachments.length > MAX_ATTACHMENTS) throw refused();
  await tx.insert(messageAttachments).values(
    attachments.map((file, position) => ({
      messageId,
      position,
      storageKey: file.key,
      fileName: file.name,
      contentType: file.contentType,
      sizeBytes: file.sizeBytes,
    })),
  );
}

/** The attachments of these messages, by message id, in the order sent. */
export async function attachmentsOf(db: Database | Transaction, messageIds: string[]): Promise<Map<string, MessageAttachmentView[]>> {
  const byMessage = new Map<string, MessageAttachmentView[]>();
  if (messageIds.length === 0) return byMessage;
  const a = messageAttachments;
  const rows = await db
    .select({ id: a.id, messageId: a.messageId, name: a.fileName, contentType: a.contentType, sizeBytes: a.sizeBytes })
    .from(a)
    .where(inArray(a.messageId, messageIds))
    .orderBy(asc(a.messageId), asc(a.position));
  for (const { messageId, ...view } of rows) {
    const list = byMessage.get(messageId) ?? [];
    list.push(view);
    byMessage.set(messageId, list);
  }
  return byMessage;
}

/**
 * Attachment `id` of thread `threadId` for `viewer`: a party of the thread while its message is
 * shown (not hidden by an operator, not deleted), or an operator (`isOperator`, checked by the
 * caller with the console's guard) when the message was reported. Anyone else, and any id that
 * is not this thread's attachment's, gets the 404 page. Images are shown inline, sandboxed;
 * PDFs are downloads. Never stored by a cache or the installed app's worker.
 */
export async function attachmentResponse(
  { db, storage }: { db: Database; storage: Storage },
  viewer: SessionUser | null,
  isOperator: boolean,
  threadId: string,
  id: string,
): Promise<Response> {
  if (!viewer || !isUuid(threadId) || !isUuid(id)) throw notFound();
  const [row] = await db
    .select({
      key: messageAttachments.storageKey,
      name: messageAttachments.fileName,
      contentType: messageAttachments.contentType,
      shown: sql<boolean>`${messages.hiddenAt} is null and ${messages.deletedAt} is null`,
      diggerUserId: threads.diggerUserId,
      clientId: threads.clientId,
      reported: sql<boolean>`exists (select 1 from ${messageReports} where ${messageReports.messageId} = ${messages.id})`,
    })
    .from(messageAttachments)
    .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .where(and(eq(messageAttachments.id, id), eq(messages.threadId, threadId)));
  if (!row) throw notFound();
  const party = row.diggerUserId === viewer.id || row.clientId === viewer.id;
  if (!((party && row.shown) || (isOperator && row.reported))) throw notFound();
  const file = await storage.get(row.key);
  if (!file) throw notFound();
  const image = row.contentType !== "application/pdf";
  // RFC 6266: an ASCII fallback and the UTF-8 name.
  const ascii = row.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": row.contentType,
      "Content-Length": String(file.data.length),
      "Content-Disposition": `${image ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.name)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}

/** The data export: each message's attachment names, by message id. */
export async function attachmentNamesOf(db: Database, messageIds: string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  for (const [messageId, list] of await attachmentsOf(db, messageIds)) names.set(messageId, list.map((file) => file.name));
  return names;
}

/**
 * In the purge's transaction: the rows of every attachment `userId` sent go; their storage keys
 * are returned for the purge to delete the files.
 */
export async function purgeAttachmentsOf(tx: Transaction, userId: string): Promise<string[]> {
  const gone = await tx
    .delete(messageAttachments)
    .where(inArray(messageAttachments.messageId, tx.select({ id: messages.id }).from(messages).where(eq(messages.senderId, userId))))
    .returning({ key: messageAttachments.storageKey });
  return gone.map((row) => row.key);
}
