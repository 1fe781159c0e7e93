/**
 * Proof of a credential (issue 22), through the real app: a digger uploads a policy or licence
 * (PDF, JPEG or PNG up to 10 MB, checked by its content) from the profile editing page; the file
 * is private (its digger and operators only, a download unless an image, 404 for anyone else and
 * any guessed id); an operator approves it until a date or rejects it with a reason the digger
 * sees; the profile shows 'Licensed — verified {date}' and the daily job lapses it to
 * self-reported after the date.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIAL_MESSAGES, todayUtc, verifiedCredentialText } from "../../core/credentials.ts";
import { formatDate } from "../../core/dates.ts";
import { queryRows } from "../../server/db/client.ts";
import { credentialDocuments, diggerProfiles, notifications, operatorActions, users } from "../../server/db/schema.ts";
import { lapseExpiredCredentials } from "../../server/ops/credential-review.ts";
import { requestAccountDeletion } from "../../server/privacy/deletion.ts";
import { purgeDeletedAccounts } from "../../server/privacy/purge.ts";
import { changeUser, signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { makeImage } from "../support/images.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpOperator(app, "Olive Operator");
});
afterAll(() => app.close());

const db = () => app.database.db;
const text = async (response: Response) => decodeHtml(await response.text());
const PROOF = "/digger-registration?proof";
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const pdf = (name = "licence.pdf", body = "%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n") => new File([body], name, { type: "application/pdf" });
const fields = (over: Record<string, string> = {}) => ({ credential: "licensed", credentialNumber: `LIC-${randomUUID().slice(0, 6)}`, credentialExpiry: inDays(200), ...over });

async function upload(digger: TestUser, file: File = pdf(), over: Record<string, string> = {}) {
  return digger.client.postMultipart(PROOF, fields(over), [{ field: "credentialDocument", file }]);
}
const proofsOf = (diggerId: string) => db().select().from(credentialDocuments).where(eq(credentialDocuments.diggerId, diggerId));
async function pendingProof(digger: TestDigger, over: Record<string, string> = {}, file?: File) {
  const response = await upload(digger, file, over);
  expect(response.status).toBe(200);
  const [proof] = await db()
    .select()
    .from(credentialDocuments)
    .where(and(eq(credentialDocuments.diggerId, digger.diggerId), eq(credentialDocuments.status, "pending"), eq(credentialDocuments.credential, (over.credential ?? "licensed") as "licensed")));
  return proof!;
}

describe("uploading a proof", () => {
  it("stores a PDF privately and lists it on the profile editing page", async () => {
    const digger = await diggerWithProfile(app);
    const response = await upload(digger, pdf("My Licence (2026).pdf"), { credentialNumber: "AZ-ROC-334455" });
    expect(response.status).toBe(200);
    expect(await text(response)).toContain(CREDENTIAL_MESSAGES.uploaded);
    const [proof] = await proofsOf(digger.diggerId);
    expect(proof).toMatchObject({ credential: "licensed", number: "AZ-ROC-334455", status: "pending", documentName: "My Licence (2026).pdf" });
    expect(proof!.documentKey).toMatch(/^private\/credentials\/[0-9a-f]{40}\.pdf$/);
    const page = await text(await digger.client.get("/digger-registration"));
    expect(page).toContain("Proof for Insured, Bonded or Licensed");
    expect(page).toContain("AZ-ROC-334455");
    expect(page).toContain("Waiting for review");
    expect(page).toContain(`/credentials/${proof!.id}/document`);
  });

  it("says what is wrong with each field, and keeps nothing of a refused proof", async () => {
    const digger = await diggerWithProfile(app);
    const empty = await digger.client.postMultipart(PROOF, {}, []);
    expect(empty.status).toBe(400);
    const page = await text(empty);
    for (const message of [CREDENTIAL_MESSAGES.credential, CREDENTIAL_MESSAGES.number, CREDENTIAL_MESSAGES.expiry, CREDENTIAL_MESSAGES.document]) {
      expect(page).toContain(message);
    }
    const cases: Array<[string, () => Promise<Response>, string]> = [
      ["an expiry in the past", () => upload(digger, pdf(), { credentialExpiry: inDays(-2) }), CREDENTIAL_MESSAGES.expiryPast],
      ["a date that does not exist", () => upload(digger, pdf(), { credentialExpiry: "2027-02-30" }), CREDENTIAL_MESSAGES.expiry],
      ["an unknown credential", () => upload(digger, pdf(), { credential: "certified" }), CREDENTIAL_MESSAGES.credential],
      ["a number over 100 characters", () => upload(digger, pdf(), { credentialNumber: "9".repeat(101) }), CREDENTIAL_MESSAGES.numberTooLong],
      ["a text file named .pdf", () => upload(digger, new File(["just words"], "licence.pdf", { type: "application/pdf" })), CREDENTIAL_MESSAGES.documentType],
      ["an HTML page named .png", () => upload(digger, new File(["<script>alert(1)</script>"], "x.png", { type: "image/png" })), CREDENTIAL_MESSAGES.documentType],
      ["a file over 10 MB", () => upload(digger, pdf("big.pdf", `%PDF-1.4\n${"x".repeat(10 * 1024 * 1024)}`)), CREDENTIAL_MESSAGES.documentSize],
    ];
    for (const [label, send, message] of cases) {
      const response = await send();
      expect(response.status, label).toBe(400);
      expect(await text(response), label).toContain(message);
    }
    expect(await proofsOf(digger.diggerId)).toEqual([]);
  });

  it("is for a digger with a profile only", async () => {
    const clientUser = await signUpAs(app, "consumer", "Connie Consumer");
    expect(location(await upload(clientUser))).toBe("/");
    const newDigger = await signUpAs(app, "digger", "Newt Digger");
    expect(location(await upload(newDigger))).toBe("/digger-registration");
    const visitor = await new SessionClient(app).postMultipart(PROOF, fields(), [{ field: "credentialDocument", file: pdf() }]);
    expect(location(visitor)).toMatch(/^\/auth\?type=digger/);
    expect(await db().select({ n: sql<number>`count(*)::int` }).from(credentialDocuments).where(eq(credentialDocuments.number, "never"))).toEqual([{ n: 0 }]);
  });

  it("names the download by what the file is, never by the uploader's extension", async () => {
    const digger = await diggerWithProfile(app);
    for (const [sent, kept] of [["run.cmd", "run.pdf"], ["x.hta", "x.pdf"], ["licence.pdf.html", "licence.pdf.pdf"], ["..\\..\\evil\".pdf", "evil.pdf"], [".pdf", "document.pdf"]] as const) {
      const proof = await pendingProof(digger, {}, pdf(sent));
      expect(proof.documentName, sent).toBe(kept);
      expect((await digger.client.get(`/credentials/${proof.id}/document`)).headers.get("content-disposition"), sent).toMatch(new RegExp(`^attachment; filename="${kept.replaceAll(".", "\\.")}"`));
    }
  });

  it("refuses an image too large for a browser to show", async () => {
    const digger = await diggerWithProfile(app);
    const huge = new File([new Uint8Array(await makeImage("png", { width: 8000, height: 7000 }))], "scan.png", { type: "image/png" });
    const response = await upload(digger, huge, { credential: "insured" });
    expect(response.status).toBe(400);
    expect(await text(response)).toContain(CREDENTIAL_MESSAGES.documentType);
  });

  it("replaces a proof still waiting for the same credential, file and all", async () => {
    const digger = await diggerWithProfile(app);
    const first = await pendingProof(digger);
    const second = await pendingProof(digger);
    expect(second.id).not.toBe(first.id);
    expect((await proofsOf(digger.diggerId)).map((p) => p.id)).toEqual([second.id]);
    expect(await app.services.storage.get(first.documentKey)).toBeNull();
    // Another credential is its own proof.
    await pendingProof(digger, { credential: "insured" });
    expect(await proofsOf(digger.diggerId)).toHaveLength(2);
  });

  it("takes two uploads at once for the same credential: one stays, nothing fails", async () => {
    const digger = await diggerWithProfile(app);
    const answers = await Promise.all([upload(digger), upload(digger), upload(digger)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const left = await proofsOf(digger.diggerId);
    expect(left).toHaveLength(1);
    expect(await app.services.storage.get(left[0]!.documentKey)).not.toBeNull();
  });

  it("keeps one waiting proof per credential in the database, whatever the app checked", async () => {
    const digger = await diggerWithProfile(app);
    const proof = await pendingProof(digger);
    const { id: _id, createdAt: _createdAt, ...copy } = proof;
    await expect(db().insert(credentialDocuments).values({ ...copy, documentKey: `private/credentials/${randomUUID().replaceAll("-", "")}.pdf` })).rejects.toThrow();
    await expect(db().update(credentialDocuments).set({ documentKey: "diggers/public.pdf" }).where(eq(credentialDocuments.id, proof.id))).rejects.toThrow();
  });
});

describe("the document", () => {
  it("is served to its digger and operators only, a PDF as a download; everyone else and every guessed id gets 404", async () => {
    const digger = await diggerWithProfile(app);
    const proof = await pendingProof(digger, {}, pdf("licence.pdf"));
    const url = `/credentials/${proof.id}/document`;

    const own = await digger.client.get(url);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("application/pdf");
    expect(own.headers.get("content-disposition")).toMatch(/^attachment; filename="licence.pdf"/);
    expect(own.headers.get("x-content-type-options")).toBe("nosniff");
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    expect((await own.text()).startsWith("%PDF-")).toBe(true);
    expect((await operator.client.get(url)).status).toBe(200);

    const other = await diggerWithProfile(app);
    const clientUser = await signUpAs(app, "consumer", "Nosy Neighbour");
    for (const [who, client] of [["another digger", other.client], ["a consumer", clientUser.client], ["a visitor", new SessionClient(app)]] as const) {
      const response = await client.get(url);
      expect(response.status, who).toBe(404);
      expect(await response.text(), who).not.toContain("%PDF");
    }
    // The data twin React Router answers for every route would carry the file without its
    // headers: nobody gets it, the owner included.
    for (const [who, client] of [["the owner", digger.client], ["an operator", operator.client], ["another digger", other.client], ["a visitor", new SessionClient(app)]] as const) {
      // React Router matches paths in any case: so does the guard.
      const shouted = [`/CREDENTIALS/${proof.id}/document.data`, `/Credentials/${proof.id}/Document.data`, `/CREDENTIALS/${proof.id}/DOCUMENT`];
      for (const twin of [`${url}.data`, `${url}/.data`, `${url}/`, ...shouted]) {
        const response = await client.get(twin);
        expect(await response.text(), `${who} ${twin}`).not.toContain("%PDF");
        expect(response.status, `${who} ${twin}`).toBe(404);
      }
    }
    for (const guess of [`/credentials/${randomUUID()}/document`, "/credentials/not-an-id/document", `/uploads/${proof.documentKey}`]) {
      expect((await digger.client.get(guess)).status, guess).toBe(404);
    }
  });

  it("serves an image proof inline, as the image type it is", async () => {
    const digger = await diggerWithProfile(app);
    const png = new File([new Uint8Array(await makeImage("png"))], "policy.png", { type: "image/png" });
    const proof = await pendingProof(digger, { credential: "insured" }, png);
    expect(proof.documentKey).toMatch(/\.png$/);
    const response = await operator.client.get(`/credentials/${proof.id}/document`);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toMatch(/^inline;/);
    expect(await text(await operator.client.get("/ops/verification"))).toContain(`src="/credentials/${proof.id}/document"`);
  });
});

describe("the operator's decision", () => {
  it("approves until a date: the profile shows the credential verified, the digger is told, the audit trail has it", async () => {
    const digger = await diggerWithProfile(app);
    await db().update(diggerProfiles).set({ isLicensed: "no" }).where(eq(diggerProfiles.id, digger.diggerId));
    const proof = await pendingProof(digger, { credentialNumber: "ROC-778899" });
    const queue = await text(await operator.client.get("/ops/verification"));
    expect(queue).toContain("Licensed: No. ROC-778899");

    const until = inDays(300);
    const stranger = await diggerWithProfile(app);
    expect((await stranger.client.post("/ops/verification", { intent: "approve-credential", documentId: proof.id, verifiedUntil: until })).status).toBe(404);
    const past = await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: proof.id, verifiedUntil: inDays(-1) });
    expect(past.status).toBe(400);
    expect(await text(past)).toContain(CREDENTIAL_MESSAGES.verifiedUntilPast);

    const approved = await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: proof.id, verifiedUntil: until });
    expect(approved.status).toBe(200);
    expect(await text(approved)).toContain(CREDENTIAL_MESSAGES.approved);
    const again = await operator.client.post("/ops/verification", { intent: "reject-credential", documentId: proof.id, reason: "Changed my mind" });
    expect(again.status).toBe(409);

    // The visitor reads it in the site's default zone (UTC in these tests).
    const badge = verifiedCredentialText("licensed", formatDate(todayUtc()));
    expect(badge).toBe(`Licensed — verified ${formatDate(todayUtc())}`);
    const profile = await text(await app.request(`/digger/${digger.diggerId}`));
    expect(profile).toContain(badge);
    expect(profile).not.toContain("Licensed (self-reported)");
    expect(await text(await digger.client.get("/digger-registration"))).toContain(`until ${formatDate(until)}`);

    const [notice] = await db().select().from(notifications).where(and(eq(notifications.userId, digger.id), eq(notifications.kind, "credential.approved")));
    expect(notice?.text).toContain(badge);
    expect((await mailTo(app, digger.email)).map((m) => m.subject)).toContain("Licensed: verified");
    const [row] = await db().select().from(operatorActions).where(eq(operatorActions.subjectId, proof.id));
    expect(row).toMatchObject({ action: "credential.approve", operatorId: operator.id, subjectType: "credential", subjectUserId: digger.id, details: { credential: "licensed", verifiedUntil: until } });
  });

  it("rejects with a reason the digger sees; the profile stays self-reported", async () => {
    const digger = await diggerWithProfile(app);
    await db().update(diggerProfiles).set({ isBonded: true }).where(eq(diggerProfiles.id, digger.diggerId));
    const proof = await pendingProof(digger, { credential: "bonded" });
    const missing = await operator.client.post("/ops/verification", { intent: "reject-credential", documentId: proof.id, reason: " " });
    expect(missing.status).toBe(400);
    expect(await text(missing)).toContain("Please give a reason");
    const reason = `The bond certificate is cut off at the bottom ${randomUUID().slice(0, 6)}`;
    const rejected = await operator.client.post("/ops/verification", { intent: "reject-credential", documentId: proof.id, reason });
    expect(await text(rejected)).toContain(CREDENTIAL_MESSAGES.rejected);
    expect(await text(await digger.client.get("/digger-registration"))).toContain(`Rejected: ${reason}`);
    const profile = await text(await app.request(`/digger/${digger.diggerId}`));
    expect(profile).toContain("Bonded (self-reported)");
    expect(profile).not.toContain(reason);
    const [notice] = await db().select().from(notifications).where(and(eq(notifications.userId, digger.id), eq(notifications.kind, "credential.rejected")));
    expect(notice?.text).toContain(reason);
    expect((await db().select().from(operatorActions).where(eq(operatorActions.subjectId, proof.id)))[0]).toMatchObject({ action: "credential.reject", reason });
  });

  it("an operator cannot review their own proof, nor verify it for more than 10 years", async () => {
    const digger = await diggerWithProfile(app);
    await changeUser(app, digger.id, { operatorSince: new Date() });
    const own = await pendingProof(digger);
    const self = await digger.client.post("/ops/verification", { intent: "approve-credential", documentId: own.id, verifiedUntil: inDays(30) });
    expect(self.status).toBe(403);
    expect(await text(self)).toContain(CREDENTIAL_MESSAGES.ownProof);
    const far = await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: own.id, verifiedUntil: "9999-12-31" });
    expect(far.status).toBe(400);
    expect(await text(far)).toContain(CREDENTIAL_MESSAGES.tooFar);
    expect((await proofsOf(digger.diggerId))[0]?.status).toBe("pending");
  });

  it("an upload and an approval at once on one profile both finish (the same lock order)", async () => {
    const digger = await diggerWithProfile(app);
    for (let round = 0; round < 8; round++) {
      const proof = await pendingProof(digger, { credential: "bonded" });
      const [decision, upload2] = await Promise.all([
        operator.client.post("/ops/verification", { intent: "approve-credential", documentId: proof.id, verifiedUntil: inDays(100) }),
        upload(digger, pdf(), { credential: "bonded" }),
      ]);
      // The approval either came first (200) or found the proof replaced (404); the upload always succeeds.
      expect([200, 404], `round ${round}`).toContain(decision.status);
      expect(upload2.status, `round ${round}`).toBe(200);
      await db().delete(credentialDocuments).where(eq(credentialDocuments.diggerId, digger.diggerId));
    }
  });

  it("a renewed proof, once approved, replaces the approval before it", async () => {
    const digger = await diggerWithProfile(app);
    const first = await pendingProof(digger);
    await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: first.id, verifiedUntil: inDays(10) });
    const renewed = await pendingProof(digger);
    expect((await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: renewed.id, verifiedUntil: inDays(400) })).status).toBe(200);
    const statuses = Object.fromEntries((await proofsOf(digger.diggerId)).map((p) => [p.id, p.status]));
    expect(statuses).toEqual({ [first.id]: "replaced", [renewed.id]: "approved" });
  });
});

describe("the digger's own data", () => {
  it("the export lists the proofs; the purge of a deleted account removes them, files and all", async () => {
    const digger = await diggerWithProfile(app);
    const proof = await pendingProof(digger, { credentialNumber: "EXPORT-123" });
    const exported = (await (await digger.client.get("/account/data")).json()) as { diggerProfile: { credentialProofs: Array<{ number: string }> } };
    expect(exported.diggerProfile.credentialProofs.map((p) => p.number)).toEqual(["EXPORT-123"]);

    // A purchase keeps the (anonymised) profile: the proofs must go all the same.
    const client = await signUpAs(app, "consumer", "Pam Purchaser");
    await insertPurchase(app, await insertGig(app, client.id), digger.diggerId);
    await requestAccountDeletion(db(), digger.id);
    await db().update(users).set({ deletedAt: sql`now() - interval '400 days'` }).where(eq(users.id, digger.id));
    await purgeDeletedAccounts(app.services);
    expect(await db().select().from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId))).toHaveLength(1);
    expect(await proofsOf(digger.diggerId)).toEqual([]);
    expect(await app.services.storage.get(proof.documentKey)).toBeNull();
  });
});

describe("the daily lapse job", () => {
  it("lapses approvals whose date has passed, tells the digger, and the profile shows self-reported again", async () => {
    const digger = await diggerWithProfile(app);
    const proof = await pendingProof(digger);
    await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: proof.id, verifiedUntil: inDays(30) });
    const current = await diggerWithProfile(app);
    const stillValid = await pendingProof(current);
    await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: stillValid.id, verifiedUntil: todayUtc() });

    // The approval's date passes (yesterday), as it would after 30 days.
    const yesterday = inDays(-1);
    await db().update(credentialDocuments).set({ verifiedUntil: yesterday }).where(eq(credentialDocuments.id, proof.id));
    // Even before the job runs, the profile never claims more than the approval said.
    expect(await text(await app.request(`/digger/${digger.diggerId}`))).toContain("Licensed (self-reported)");

    expect(await lapseExpiredCredentials(app.services)).toBeGreaterThanOrEqual(1);
    const [lapsed] = await db().select().from(credentialDocuments).where(eq(credentialDocuments.id, proof.id));
    expect(lapsed?.status).toBe("lapsed");
    const [valid] = await db().select().from(credentialDocuments).where(eq(credentialDocuments.id, stillValid.id));
    expect(valid?.status).toBe("approved");
    expect(await text(await app.request(`/digger/${current.diggerId}`))).toContain(verifiedCredentialText("licensed", formatDate(valid!.decidedAt!)));

    const profile = await text(await app.request(`/digger/${digger.diggerId}`));
    expect(profile).toContain("Licensed (self-reported)");
    expect(profile).not.toContain("Licensed — verified");
    const [notice] = await db().select().from(notifications).where(and(eq(notifications.userId, digger.id), eq(notifications.kind, "credential.lapsed")));
    expect(notice?.text).toContain(formatDate(yesterday));
    expect(await text(await digger.client.get("/digger-registration"))).toContain(`Lapsed: the verification ran until ${formatDate(yesterday)}`);
    // A second run finds nothing more of it.
    await lapseExpiredCredentials(app.services);
    expect(await db().select().from(notifications).where(and(eq(notifications.userId, digger.id), eq(notifications.kind, "credential.lapsed")))).toHaveLength(1);
  });

  it("is scheduled daily", async () => {
    const rows = await queryRows<{ cron: string; timezone: string }>(db(), sql`select cron, timezone from pgboss.schedule where name = 'credentials.lapse'`);
    expect(rows).toEqual([{ cron: "5 0 * * *", timezone: "UTC" }]);
  });
});
