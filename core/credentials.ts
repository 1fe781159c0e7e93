/**
 * Proof of a credential (issue 22): what a digger uploads for Insured, Bonded or Licensed, the
 * operator's decision, and the words both sides see (docs/decisions/0028-credential-proof.md).
 */
import { z } from "zod";
import { formatDate } from "./dates.ts";
import { operatorReason } from "./ops-users.ts";
import { CREDENTIAL_KINDS, type CredentialKind } from "./credential-texts.ts";

export { CREDENTIAL_KINDS, CREDENTIALS, verifiedCredentialText, type CredentialKind } from "./credential-texts.ts";

type CredentialStatus = "pending" | "approved" | "rejected" | "lapsed" | "replaced";

/** A proof's file: PDF, JPEG or PNG, up to 10 MB. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_ACCEPT = "application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png";
export const CREDENTIAL_NUMBER_MAX = 100;

export const CREDENTIAL_MESSAGES = {
  credential: "Choose Insured, Bonded or Licensed",
  number: "Enter the policy or licence number",
  numberTooLong: `The policy or licence number can be at most ${CREDENTIAL_NUMBER_MAX} characters`,
  expiry: "Enter the expiry date",
  expiryPast: "The expiry date must not be in the past",
  document: "Choose the document to upload",
  documentType: "The document must be a PDF, JPEG or PNG file",
  documentSize: "The document must be at most 10 MB",
  uploaded: "Proof uploaded. An operator will review it.",
  approved: "Credential approved.",
  rejected: "Credential rejected.",
  verifiedUntil: "Enter the date the verification runs until",
  verifiedUntilPast: "The verified-until date must not be in the past",
  alreadyDecided: "This proof has already been reviewed.",
  ownProof: "You cannot review a proof of your own.",
  tooFar: "The date can be at most 10 years away",
  notFound: "Proof not found",
} as const;

/** Today's date in UTC, as YYYY-MM-DD: the day every server and the lapse job agree on. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);
/** No policy or licence runs longer: a later date is a typo (or a verification that never ends). */
const MAX_YEARS_AHEAD = 10;
const inYears = (years: number, now = new Date()) => `${now.getUTCFullYear() + years}${todayUtc(now).slice(4)}`;
/** A real calendar date written YYYY-MM-DD (not 2027-02-30). */
const realDate = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};
/** A real calendar date, today (UTC) or later: one message, the first that applies. */
const futureDate = (missing: string, past: string) =>
  z
    .string({ error: missing })
    .trim()
    .superRefine((value, ctx) => {
      if (!realDate(value)) ctx.addIssue({ code: "custom", message: missing });
      else if (value < todayUtc()) ctx.addIssue({ code: "custom", message: past });
      else if (value > inYears(MAX_YEARS_AHEAD)) ctx.addIssue({ code: "custom", message: CREDENTIAL_MESSAGES.tooFar });
    });

/** The upload form's text fields (the file is checked on the server, by its content). */
export const credentialUploadSchema = z.object({
  credential: z.enum(CREDENTIAL_KINDS, { error: CREDENTIAL_MESSAGES.credential }),
  credentialNumber: z
    .string({ error: CREDENTIAL_MESSAGES.number })
    .trim()
    .min(1, CREDENTIAL_MESSAGES.number)
    .max(CREDENTIAL_NUMBER_MAX, CREDENTIAL_MESSAGES.numberTooLong),
  credentialExpiry: futureDate(CREDENTIAL_MESSAGES.expiry, CREDENTIAL_MESSAGES.expiryPast),
});

/** An operator's decision on one proof: Approve until a date, or Reject with a reason the digger sees. */
export const credentialDecisionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("approve-credential"),
    documentId: z.uuid({ error: CREDENTIAL_MESSAGES.notFound }),
    verifiedUntil: futureDate(CREDENTIAL_MESSAGES.verifiedUntil, CREDENTIAL_MESSAGES.verifiedUntilPast),
  }),
  z.object({
    intent: z.literal("reject-credential"),
    documentId: z.uuid({ error: CREDENTIAL_MESSAGES.notFound }),
    reason: operatorReason(),
  }),
]);

/** A proof as its digger sees it on their profile editing page. */
export interface OwnCredentialDocument {
  id: string;
  credential: CredentialKind;
  number: string;
  statedExpiry: string;
  documentName: string;
  status: CredentialStatus;
  verifiedUntil: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  createdAt: string;
}

/** A proof in the console's verification queue. */
export interface PendingProof {
  id: string;
  credential: CredentialKind;
  number: string;
  statedExpiry: string;
  documentName: string;
  /** An image is shown in the queue; a PDF is only downloaded. */
  isImage: boolean;
  createdAt: string;
  diggerId: string;
  handle: string;
  userId: string;
  email: string;
}

/**
 * What the digger's list says of a proof; `day` writes the decision's day in the reader's zone
 * (issue 47: the server's `readerTime(...).date`). The verified-until date is a calendar day.
 */
export function credentialStatusText(
  doc: Pick<OwnCredentialDocument, "status" | "verifiedUntil" | "decidedAt" | "rejectionReason">,
  day: (instant: string) => string,
): string {
  switch (doc.status) {
    case "pending":
      return "Waiting for review";
    case "approved":
      return `Verified ${day(doc.decidedAt!)}, until ${formatDate(doc.verifiedUntil!)}`;
    case "rejected":
      return `Rejected: ${doc.rejectionReason}`;
    case "lapsed":
      return `Lapsed: the verification ran until ${formatDate(doc.verifiedUntil!)}`;
    case "replaced":
      return "Replaced by a newer proof";
  }
}

/** The address that serves a proof's file, to its digger and operators only. */
export const credentialDocumentUrl = (id: string) => `/credentials/${id}/document`;
