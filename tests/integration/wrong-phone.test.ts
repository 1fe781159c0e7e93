/**
 * 'Wrong Phone Number' (issue 49; server/leads/report-issue.ts): a digger's report on a lead whose
 * number was not verified when they bought it is approved at once (decided_by 'automatic', one
 * refund in full, the client told by e-mail and bell), within decision 0031's bound of automatic
 * approvals per digger; past it, and on a number verified at purchase, the client decides, and the
 * report dialog, the client's issues and the operators' queue say 'The client verified this number
 * on {date}'. A gig without a phone cannot be reported for it. Runs on PGlite, and on PostgreSQL
 * with TEST_DATABASE_URL.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTO_APPROVALS_PER_DIGGER, ISSUE_MESSAGES, type GigIssue } from "../../core/lead-issues.ts";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { zonedDate } from "../../core/zoned-dates.ts";
import { gigs, hires, leadIssues, leadPurchases, notifications, phoneVerifications, refunds, threads } from "../../server/db/schema.ts";
import { signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger, type TestGig } from "../support/leads.ts";
import type { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const db = () => app.database.db;
const report = (client: SessionClient, purchaseId: string, issueType = "wrong_phone", description = "The number rings a pizza place.") =>
  client.post("/my-leads", { intent: "report-issue", purchaseId, issueType, description });
const issueOf = async (purchaseId: string) => (await db().select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, purchaseId)))[0];
const refundsOf = (purchaseId: string) => db().select().from(refunds).where(eq(refunds.leadPurchaseId, purchaseId));
const issuesOf = async (client: SessionClient, gigId: string) => ((await (await client.get(`/my-gigs/${gigId}/issues`)).json()) as { issues: GigIssue[] }).issues;
const e164 = () => `+1303555${String(Math.floor(1000 + Math.random() * 8999))}`;

interface Lead {
  owner: TestUser;
  digger: TestDigger;
  gig: TestGig;
  purchaseId: string;
}

/**
 * A lead bought by `digger` (a new one by default) of a new client's gig with `phone`; when
 * `verified`, the client verified that number before the purchase (the triggers carry it to the
 * gig, and the purchase snapshots it as it completes).
 */
async function lead({ digger, phone = e164(), verified = false }: { digger?: TestDigger; phone?: string | null; verified?: boolean } = {}): Promise<Lead> {
  const owner = await signUpAs(app, "consumer", "Olive Owner");
  const buyer = digger ?? (await diggerWithProfile(app));
  if (verified && phone) await db().insert(phoneVerifications).values({ userId: owner.id, phone, verifiedAt: new Date("2026-11-20T18:00:00Z") });
  const gig = await insertGig(app, owner.id, { contactPhone: phone });
  const purchase = await insertPurchase(app, gig, buyer.diggerId);
  return { owner, digger: buyer, gig, purchaseId: purchase.id };
}

describe("a number not verified at purchase", () => {
  it("is approved at once: decided automatically, refunded in full once, the digger's toast says why, and the client is told", async () => {
    const l = await lead();
    expect((await db().select().from(leadPurchases).where(eq(leadPurchases.id, l.purchaseId)))[0]!.phoneVerifiedAt).toBeNull();
    const response = await report(l.digger.client, l.purchaseId);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(ISSUE_MESSAGES.approvedUnverifiedPhone);

    expect(await issueOf(l.purchaseId)).toMatchObject({ issueType: "wrong_phone", refundPercentage: 100, status: "approved", decidedBy: "automatic" });
    const paid = await refundsOf(l.purchaseId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ reason: "issue_approved" });
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, l.purchaseId));
    expect(paid[0]!.amountCents).toBe(purchase!.amountPaidCents);

    // The client: an e-mail that says why (never 'not answered by'), and the bell; not asked to decide.
    const clientMail = await mailTo(app, l.owner.email);
    expect(clientMail.map((m) => m.subject)).toEqual([`An issue on your gig "${l.gig.title}" was approved automatically`]);
    expect(clientMail[0]!.textBody).toContain("The number was not verified when they bought the lead");
    expect(clientMail[0]!.textBody).not.toContain("It was not approved or rejected by");
    const bells = await db().select().from(notifications).where(eq(notifications.userId, l.owner.id));
    expect(bells.map((b) => b.text)).toEqual([`An issue on your gig "${l.gig.title}" was approved automatically: its phone number was not verified, the digger is refunded, you pay nothing`]);
    // The digger's e-mail says why too.
    const [diggerMail] = await mailTo(app, l.digger.email);
    expect(diggerMail!.textBody).toContain("The client had not verified the phone number of the gig when you bought the lead");

    // The card: Approved automatically, no Report Issue.
    const html = decodeHtml(await (await l.digger.client.get("/my-leads")).text());
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Approved automatically<\/button>/);
    // A second report of the same lead: one issue per purchase.
    expect((await report(l.digger.client, l.purchaseId)).status).toBe(409);
    expect(await refundsOf(l.purchaseId)).toHaveLength(1);
  });

  it(`counts toward the ${AUTO_APPROVALS_PER_DIGGER} automatic approvals per digger: past them it goes to the client like any other type`, async () => {
    const digger = await diggerWithProfile(app);
    for (let i = 0; i < AUTO_APPROVALS_PER_DIGGER; i += 1) {
      const l = await lead({ digger });
      expect(await (await report(digger.client, l.purchaseId)).text()).toContain(ISSUE_MESSAGES.approvedUnverifiedPhone);
    }
    const past = await lead({ digger });
    const response = await report(digger.client, past.purchaseId);
    expect(await response.text()).toContain(ISSUE_MESSAGES.reported);
    expect(await issueOf(past.purchaseId)).toMatchObject({ status: "pending", decidedBy: null });
    expect(await refundsOf(past.purchaseId)).toEqual([]);
    const [mail] = await mailTo(app, past.owner.email);
    expect(mail!.subject).toBe(`A digger reported an issue with your gig "${past.gig.title}"`);
    expect(mail!.textBody).toContain("Wrong Phone Number");

    // An approval at once counts for the deadline's bound too: this digger's overdue issue goes to the operators.
    const overdue = await lead({ digger });
    expect((await report(digger.client, overdue.purchaseId, "mistake")).status).toBe(200);
    await db().update(leadIssues).set({ respondBy: sql`now() - interval '1 minute'` }).where(eq(leadIssues.leadPurchaseId, overdue.purchaseId));
    const { autoApproveOverdueIssues } = await import("../../server/leads/issue-deadlines.ts");
    await autoApproveOverdueIssues(app.services);
    expect(await issueOf(overdue.purchaseId)).toMatchObject({ status: "pending", decidedBy: null });
    expect((await issueOf(overdue.purchaseId))!.escalatedAt).not.toBeNull();
  });

  it("a number verified at purchase and changed since goes to the client: it was verified when the digger bought it", async () => {
    const l = await lead({ verified: true });
    await db().update(gigs).set({ contactPhone: e164() }).where(eq(gigs.id, l.gig.id));
    expect(await (await report(l.digger.client, l.purchaseId)).text()).toContain(ISSUE_MESSAGES.reported);
    expect(await issueOf(l.purchaseId)).toMatchObject({ status: "pending", decidedBy: null });
  });

  it("goes to the client when the thread shows the number reached the client: a reply, a hire or an accepted quote", async () => {
    const replied = await lead();
    // The purchase's thread (made with it) shows a reply of the client.
    await db().update(threads).set({ clientFirstReplyAt: sql`now()` }).where(eq(threads.purchaseId, replied.purchaseId));
    const hired = await lead();
    await db().insert(hires).values({ gigId: hired.gig.id, diggerId: hired.digger.diggerId });
    for (const l of [replied, hired]) {
      expect(await (await report(l.digger.client, l.purchaseId)).text()).toContain(ISSUE_MESSAGES.reported);
      expect(await issueOf(l.purchaseId)).toMatchObject({ status: "pending", decidedBy: null });
      expect(await refundsOf(l.purchaseId)).toEqual([]);
    }
  });

  it("another type on the same unverified number is not approved at once", async () => {
    const l = await lead();
    expect(await (await report(l.digger.client, l.purchaseId, "mistake")).text()).toContain(ISSUE_MESSAGES.reported);
    expect(await issueOf(l.purchaseId)).toMatchObject({ status: "pending" });
  });

  it("with phone verification off (production without SMS_PROVIDER) the client decides: nobody could verify", async () => {
    // No setting turns it off outside production: the running server's settings, as production's would read.
    const config = app.services.config as { sms: unknown };
    const sms = config.sms;
    config.sms = null;
    try {
      const l = await lead();
      expect(await (await report(l.digger.client, l.purchaseId)).text()).toContain(ISSUE_MESSAGES.reported);
      expect(await issueOf(l.purchaseId)).toMatchObject({ status: "pending" });
    } finally {
      config.sms = sms;
    }
  });
});

describe("a number verified at purchase", () => {
  it("goes to the client, and the dialog, the client's issues and the operators' queue say when the client verified it", async () => {
    const l = await lead({ verified: true });
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, l.purchaseId));
    expect(purchase!.phoneVerifiedAt?.toISOString()).toBe("2026-11-20T18:00:00.000Z");
    const line = PHONE_TEXTS.verifiedOn(zonedDate(purchase!.phoneVerifiedAt!, app.config.defaultTimeZone));
    expect(line).toBe(`The client verified this number on Nov 20, 2026`);

    // Before sending: the report dialog's line is in the page's data (the digger's zone).
    expect(decodeHtml(await (await l.digger.client.get("/my-leads")).text())).toContain(line);

    const response = await report(l.digger.client, l.purchaseId);
    expect(await response.text()).toContain(ISSUE_MESSAGES.reported);
    expect(await issueOf(l.purchaseId)).toMatchObject({ status: "pending", decidedBy: null });
    expect(await refundsOf(l.purchaseId)).toEqual([]);

    // The client reads it of themself.
    const clientLine = PHONE_TEXTS.youVerifiedOn(zonedDate(purchase!.phoneVerifiedAt!, app.config.defaultTimeZone));
    expect(clientLine).toBe("You verified this number on Nov 20, 2026");
    const [issue] = await issuesOf(l.owner.client, l.gig.id);
    expect(issue).toMatchObject({ issueType: "wrong_phone", phoneVerifiedText: clientLine });

    // The client forgets the number later: the purchase keeps what it was bought with.
    await db().delete(phoneVerifications).where(eq(phoneVerifications.userId, l.owner.id));
    expect((await issuesOf(l.owner.client, l.gig.id))[0]!.phoneVerifiedText).toBe(clientLine);

    // Past the client's deadline and the digger's bound, the operators decide it, with the same line.
    await db()
      .update(leadIssues)
      .set({ respondBy: sql`now() - interval '1 hour'`, escalatedAt: sql`now()`, operatorRespondBy: sql`now() + interval '72 hours'` })
      .where(eq(leadIssues.leadPurchaseId, l.purchaseId));
    const operator = await signUpOperator(app);
    expect(decodeHtml(await (await operator.client.get("/ops/payments")).text())).toContain(line);
  });

  it("another type on a verified number says nothing of the verification", async () => {
    const verified = await lead({ verified: true });
    expect((await report(verified.digger.client, verified.purchaseId, "changed_mind")).status).toBe(200);
    expect((await issuesOf(verified.owner.client, verified.gig.id))[0]!.phoneVerifiedText).toBeNull();
  });
});

describe("who may report it", () => {
  it("a gig without a phone: the type is not offered and the server refuses it", async () => {
    const l = await lead({ phone: null });
    const html = decodeHtml(await (await l.digger.client.get("/my-leads")).text());
    expect(html).toContain(">Report Issue<");
    const response = await report(l.digger.client, l.purchaseId);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(ISSUE_MESSAGES.noPhone);
    expect(await issueOf(l.purchaseId)).toBeUndefined();
  });

  it("only the purchase's digger: another digger and the client get 404, and nothing is written", async () => {
    const l = await lead();
    const other = await diggerWithProfile(app);
    expect((await report(other.client, l.purchaseId)).status).toBe(404);
    const clientAsDigger = await signUpAs(app, "consumer", "Not A Digger");
    expect([403, 404, 302]).toContain((await report(clientAsDigger.client, l.purchaseId)).status);
    expect(await issueOf(l.purchaseId)).toBeUndefined();
    expect(await refundsOf(l.purchaseId)).toEqual([]);
    // A purchase not completed is no lead.
    const pending = await insertPurchase(app, l.gig, other.diggerId, { status: "pending", purchasedAt: null, providerSessionId: `test_cs_${randomUUID()}` });
    expect((await report(other.client, pending.id)).status).toBe(404);
    expect(await db().select().from(leadIssues).where(and(eq(leadIssues.leadPurchaseId, pending.id)))).toEqual([]);
  });
});
