import { describe, expect, it } from "vitest";
import { formatDate } from "../../core/dates.ts";
import { CREDENTIAL_MESSAGES, credentialDecisionSchema, credentialStatusText, credentialUploadSchema, todayUtc, verifiedCredentialText } from "../../core/credentials.ts";

const messages = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
const NEXT_YEAR = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
const valid = { credential: "insured", credentialNumber: " POL-1 ", credentialExpiry: NEXT_YEAR };

describe("the proof's fields", () => {
  it("takes a credential, a trimmed number and a future date", () => {
    expect(credentialUploadSchema.parse(valid)).toEqual({ credential: "insured", credentialNumber: "POL-1", credentialExpiry: NEXT_YEAR });
    expect(credentialUploadSchema.safeParse({ ...valid, credentialExpiry: todayUtc() }).success).toBe(true);
  });

  it("says what is wrong with each field at once", () => {
    expect(messages(credentialUploadSchema.safeParse({}))).toEqual({
      credential: CREDENTIAL_MESSAGES.credential,
      credentialNumber: CREDENTIAL_MESSAGES.number,
      credentialExpiry: CREDENTIAL_MESSAGES.expiry,
    });
  });

  it.each([
    ["a day that does not exist", "2027-02-30", CREDENTIAL_MESSAGES.expiry],
    ["another format", "12/31/2099", CREDENTIAL_MESSAGES.expiry],
    ["yesterday", new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), CREDENTIAL_MESSAGES.expiryPast],
  ])("refuses %s as the expiry", (_label, credentialExpiry, message) => {
    expect(messages(credentialUploadSchema.safeParse({ ...valid, credentialExpiry }))).toEqual({ credentialExpiry: message });
  });

  it("refuses an unknown credential and a number over 100 characters", () => {
    expect(messages(credentialUploadSchema.safeParse({ ...valid, credential: "certified", credentialNumber: "9".repeat(101) }))).toEqual({
      credential: CREDENTIAL_MESSAGES.credential,
      credentialNumber: CREDENTIAL_MESSAGES.numberTooLong,
    });
  });
});

describe("the operator's decision", () => {
  const id = "7f1c2a9e-3b1d-4c1e-9a7b-2d3c4e5f6a7b";
  it("approves until a date that has not passed, and rejects only with a reason", () => {
    expect(credentialDecisionSchema.safeParse({ intent: "approve-credential", documentId: id, verifiedUntil: NEXT_YEAR }).success).toBe(true);
    expect(messages(credentialDecisionSchema.safeParse({ intent: "approve-credential", documentId: id, verifiedUntil: "2099-01-01" }))).toEqual({ verifiedUntil: CREDENTIAL_MESSAGES.tooFar });
    expect(messages(credentialDecisionSchema.safeParse({ intent: "approve-credential", documentId: id, verifiedUntil: "2001-01-01" }))).toEqual({ verifiedUntil: CREDENTIAL_MESSAGES.verifiedUntilPast });
    expect(messages(credentialDecisionSchema.safeParse({ intent: "reject-credential", documentId: id, reason: "  " }))).toEqual({ reason: "Please give a reason" });
  });
});

describe("the words", () => {
  it("names the credential and the day it was verified", () => {
    expect(verifiedCredentialText("licensed", "Nov 24, 2026")).toBe("Licensed — verified Nov 24, 2026");
  });

  it("says what became of a proof", () => {
    const decided = { decidedAt: "2026-11-24T10:00:00Z", verifiedUntil: "2027-06-30", rejectionReason: null };
    expect(credentialStatusText({ ...decided, status: "approved" }, formatDate)).toBe("Verified Nov 24, 2026, until Jun 30, 2027");
    expect(credentialStatusText({ ...decided, status: "lapsed" }, formatDate)).toBe("Lapsed: the verification ran until Jun 30, 2027");
    expect(credentialStatusText({ status: "rejected", decidedAt: decided.decidedAt, verifiedUntil: null, rejectionReason: "Cut off" }, formatDate)).toBe("Rejected: Cut off");
    expect(credentialStatusText({ status: "pending", decidedAt: null, verifiedUntil: null, rejectionReason: null }, formatDate)).toBe("Waiting for review");
  });
});
