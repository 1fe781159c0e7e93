/**
 * A message's attachments (issue 32, docs/decisions/0047-message-attachments.md): up to 5 per
 * message, each a JPEG, PNG, WebP or PDF of at most 10 MB. The type is read from the file's
 * first bytes (magic numbers) on the server; the browser's claim is only a first filter.
 */
export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** The file input's name in the send form. */
export const ATTACHMENT_FIELD = "attachments";
/** Longest kept file name (the database's check). */
export const MAX_ATTACHMENT_NAME = 200;

export const ATTACHMENT_TYPES = ["image/jpeg", "image/png", "image/webp", "application/pdf"] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
/** The file input's `accept`: a hint for the picker, never the check. */
export const ATTACHMENT_ACCEPT = ATTACHMENT_TYPES.join(",");

export const ATTACHMENT_TEXTS = {
  refused: "Attach JPEG, PNG, WebP or PDF files up to 10 MB",
  /** A PDF the server cannot read to write it again without its metadata (server/conversations/pdf-rewrite.ts). */
  pdfUnreadable: "This PDF could not be read. Try saving it again.",
  label: "Attach files",
  hint: `Up to ${MAX_ATTACHMENTS} files: JPEG, PNG, WebP or PDF, up to 10 MB each.`,
  listLabel: "Attachments",
} as const;

/** An attachment as the thread shows it; its address is `attachmentPath(threadId, id)`. */
export interface MessageAttachmentView {
  id: string;
  name: string;
  contentType: AttachmentType;
  sizeBytes: number;
}

export const attachmentPath = (threadId: string, attachmentId: string) => `/messages/${threadId}/attachments/${attachmentId}`;
export const isImageAttachment = (type: string) => type.startsWith("image/");

/** "2.4 MB", "830 KB": the size beside a PDF's link. */
export function attachmentSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A browser-side first check of the picked files (the server checks each file's bytes). */
export function attachmentsProblem(files: ArrayLike<{ size: number; type: string }>): string | null {
  if (files.length > MAX_ATTACHMENTS) return ATTACHMENT_TEXTS.refused;
  for (const file of Array.from(files)) {
    if (file.size > MAX_ATTACHMENT_BYTES || !(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) return ATTACHMENT_TEXTS.refused;
  }
  return null;
}
