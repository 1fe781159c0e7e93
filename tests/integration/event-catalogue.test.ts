/**
 * Every event kind, driven once as people and jobs drive it, and what it produced: the
 * (subject, recipient) of each e-mail and the (kind, link, recipient) of each bell entry
 * (issue 31). Written before the events moved to server/events/ and kept unchanged after:
 * the move changed no subject, recipient, bell entry or link.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendDailyDigests } from "../../server/alerts/digest.ts";
import { deliverLeadAlertBatch } from "../../server/alerts/fan-out.ts";
import {
  credentialDocuments,
  diggerReferences,
  emails,
  gigs,
  leadAlertCategories,
  leadAlertSettings,
  leadIssues,
  notifications,
  operatorActions,
  quotes,
  referenceContactRequests,
  threads,
} from "../../server/db/schema.ts";
import { autoApproveOverdueIssues, remindClient } from "../../server/leads/issue-deadlines.ts";
import { lapseExpiredCredentials } from "../../server/ops/credential-review.ts";
import { readerTime } from "../../server/reader-time.ts";
import { remindDueWindow } from "../../server/reviews/review-window-jobs.ts";
import { changeUser, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { diggerWithProfile, insertGig, insertPurchase, topLevelCategoryId, type TestGig } from "../support/leads.ts";
import { diggerReviewsInWindow, moveWindowBack, windowOf } from "../support/review-windows.ts";
import { location, SessionClient } from "../support/session-client.ts";

const SUPPORT = "support-events@example.com";
let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp({ SUPPORT_EMAIL: SUPPORT });
  operator = await signUpAs(app, "consumer", "Olive Operator");
  await changeUser(app, operator.id, { operatorSince: new Date() });
});
afterAll(() => app.close());

const db = () => app.database.db;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * What the event produced for the people named (by their role in the test): e-mails as
 * "mail <role>: <subject>", bell entries as "bell <role>: <kind> <link>", operators' audit rows
 * about them as "audit <role>: <action>", sorted; the gig's
 * title reads {gig}, a handle {handle}, an id {id}.
 */
async function produced(people: Record<string, { id?: string; email: string }>, gig?: TestGig): Promise<string[]> {
  const byAddress = new Map(Object.entries(people).map(([role, p]) => [p.email, role]));
  const byId = new Map(Object.entries(people).flatMap(([role, p]) => (p.id ? [[p.id, role] as const] : [])));
  const normal = (s: string) => {
    let out = gig ? s.replaceAll(gig.title, "{gig}") : s;
    out = out.replace(/\bd_[a-z0-9]+/g, "{handle}").replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "{id}");
    return out;
  };
  const mails = await db().select({ to: emails.toAddress, subject: emails.subject }).from(emails).where(inArray(emails.toAddress, [...byAddress.keys()]));
  const ids = [...byId.keys()];
  const bell = ids.length ? await db().select().from(notifications).where(inArray(notifications.userId, ids)) : [];
  const audit = ids.length ? await db().select().from(operatorActions).where(inArray(operatorActions.subjectUserId, ids)) : [];
  return [
    ...audit.map((a) => `audit ${byId.get(a.subjectUserId!)}: ${a.action}`),
    ...mails.map((m) => `mail ${byAddress.get(m.to)}: ${normal(m.subject)}`),
    ...bell.map((n) => `bell ${byId.get(n.userId)}: ${n.kind} ${normal(n.link)}`),
  ].sort();
}

async function lead() {
  const client = await signUpAs(app, "consumer", "Clara Client");
  const digger = await diggerWithProfile(app);
  const gig = await insertGig(app, client.id);
  const purchase = await insertPurchase(app, gig, digger.diggerId);
  return { client, digger, gig, purchase };
}
const report = (l: Awaited<ReturnType<typeof lead>>) =>
  l.digger.client.post("/my-leads", { intent: "report-issue", purchaseId: l.purchase.id, issueType: "mistake", description: "Posted by mistake, sorry." });
const issueOf = async (purchaseId: string) => (await db().select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, purchaseId)))[0]!;

describe("each event's e-mails and bell entries (before and after issue 31's move)", () => {
  it("account e-mails: sign-up, a sign-up with a taken address, the password reset", async () => {
    const address = `new-${randomUUID()}@example.com`;
    const signUp = { intent: "sign-up", fullName: "Nina New", email: address, password: "correct-horse", userType: "consumer", ageConfirmed: "on" };
    await new SessionClient(app).post("/auth", signUp);
    await new SessionClient(app).post("/auth", signUp);
    await new SessionClient(app).post("/auth?view=forgot", { intent: "forgot-password", email: address });
    expect(await produced({ account: { email: address } })).toEqual([
      "mail account: Confirm your e-mail for Digs & Gigs",
      "mail account: Reset your Digs & Gigs password",
      "mail account: Someone tried to sign up with your e-mail address",
    ]);
  });

  it("the contact form", async () => {
    const before = await db().select().from(emails).where(eq(emails.toAddress, SUPPORT));
    const response = await new SessionClient(app).post("/contact", { name: "Cody Contact", email: `c-${randomUUID()}@example.com`, subject: "Refunds", message: "How do refunds work for a lead that was posted by mistake?" });
    expect(response.status).toBeLessThan(400);
    const after = await produced({ support: { email: SUPPORT } });
    expect(after.slice(before.length)).toEqual(["mail support: Contact form: Refunds"]);
  });

  it("a purchase tells the client; a payment for a closed lead tells the digger", async () => {
    const client = await signUpAs(app, "consumer", "Clara Client");
    const digger = await diggerWithProfile(app);
    const late = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id);
    const lateCheckout = location(await late.client.post(`/gig/${gig.id}`, { intent: "purchase" }))!;
    const start = await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    expect((await digger.client.post(location(start)!, { intent: "pay" })).status).toBe(302);
    await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "closed" });
    await late.client.post(lateCheckout, { intent: "pay" });
    expect(await produced({ client, digger, late }, gig)).toEqual([
      "bell client: lead.bought /digger/{id}",
      "bell late: lead.unavailable /browse-gigs",
      'mail client: {handle} bought your lead for "{gig}"',
      'mail late: The lead for "{gig}" is no longer available',
    ]);
  });

  it("an issue reported, reminded, and decided by the client", async () => {
    const l = await lead();
    expect((await report(l)).status).toBe(200);
    const issue = await issueOf(l.purchase.id);
    expect(await remindClient(app.services, issue.id)).toBe(true);
    expect((await l.client.client.post(`/my-gigs/${l.gig.id}/issues`, { issueId: issue.id, decision: "reject" })).status).toBe(200);
    expect(await produced({ client: l.client, digger: l.digger }, l.gig)).toEqual([
      "bell client: issue.reminder /my-gigs",
      "bell client: issue.reported /my-gigs",
      "bell digger: issue.decided /my-leads",
      'mail client: A digger reported an issue with your gig "{gig}"',
      'mail client: Reminder: respond to the issue on your gig "{gig}"',
      'mail digger: Your issue report for "{gig}" was rejected',
    ]);
  });

  it("an issue approved automatically", async () => {
    const l = await lead();
    await report(l);
    await db().update(leadIssues).set({ respondBy: sql`now() - interval '1 minute'` }).where(eq(leadIssues.leadPurchaseId, l.purchase.id));
    await autoApproveOverdueIssues(app.services);
    expect(await produced({ client: l.client, digger: l.digger }, l.gig)).toEqual([
      "bell client: issue.auto-approved /my-gigs",
      "bell client: issue.reported /my-gigs",
      "bell digger: issue.decided /my-leads",
      'mail client: A digger reported an issue with your gig "{gig}"',
      'mail client: An issue on your gig "{gig}" was approved automatically',
      'mail digger: Your issue report for "{gig}" was approved automatically',
    ]);
  });

  it("an overdue issue decided by an operator", async () => {
    const l = await lead();
    await report(l);
    const issue = await issueOf(l.purchase.id);
    await db()
      .update(leadIssues)
      .set({ respondBy: sql`now() - interval '1 hour'`, escalatedAt: sql`now()`, operatorRespondBy: sql`now() + interval '72 hours'` })
      .where(eq(leadIssues.id, issue.id));
    expect((await operator.client.post("/ops/payments", { intent: "decide-issue", issueId: issue.id, decision: "approve" })).status).toBe(200);
    expect(await produced({ client: l.client, digger: l.digger }, l.gig)).toEqual([
      "audit digger: issue.approve",
      "bell client: issue.decided /my-gigs",
      "bell client: issue.reported /my-gigs",
      "bell digger: issue.decided /my-leads",
      'mail client: A digger reported an issue with your gig "{gig}"',
      'mail client: The issue on your gig "{gig}" was approved by Digs & Gigs',
      'mail digger: Your issue report for "{gig}" was approved',
    ]);
  });

  it("a reference contact request and its answer", async () => {
    const digger = await diggerWithProfile(app);
    const clientUser = await signUpAs(app, "consumer", "Quinn Asker");
    const [reference] = await db()
      .insert(diggerReferences)
      .values({ diggerId: digger.diggerId, referenceName: "Ann Ref", referenceEmail: `ann-${randomUUID()}@example.com` })
      .returning();
    expect((await clientUser.client.post(`/digger/${digger.diggerId}`, { referenceId: reference!.id })).status).toBe(200);
    const [row] = await db().select().from(referenceContactRequests).where(eq(referenceContactRequests.referenceId, reference!.id));
    expect((await digger.client.post("/reference-requests", { requestId: row!.id, decision: "approve" })).status).toBe(200);
    expect(await produced({ digger, client: clientUser })).toEqual([
      "bell client: reference.decided /digger/{id}",
      "bell digger: reference.requested /reference-requests",
      "mail client: Your reference contact request was approved",
      "mail digger: New reference contact request",
    ]);
  });

  it("quotes (issue 33): an accept tells the chosen digger and the other buyer once each; a decline tells the digger", async () => {
    const l = await lead();
    const other = await diggerWithProfile(app);
    await insertPurchase(app, l.gig, other.diggerId);
    const threadOf = async (purchaseId: string) => (await db().select().from(threads).where(eq(threads.purchaseId, purchaseId)))[0]!.id;
    const thread = await threadOf(l.purchase.id);
    const quote = { type: "fixed", amount: "900", included: "Labour and materials" };
    expect((await l.digger.client.post(`/messages/${thread}`, { intent: "send-quote", ...quote })).status).toBe(200);
    const quoteOf = async () => (await db().select().from(quotes).where(and(eq(quotes.threadId, thread), eq(quotes.status, "open"))))[0]!.id;
    expect((await l.client.client.post(`/messages/${thread}`, { intent: "decline-quote", quoteId: await quoteOf(), reason: "Too dear" })).status).toBe(200);
    expect((await l.digger.client.post(`/messages/${thread}`, { intent: "send-quote", ...quote })).status).toBe(200);
    expect((await l.client.client.post(`/messages/${thread}`, { intent: "accept-quote", quoteId: await quoteOf() })).status).toBe(200);
    expect((await l.client.client.post("/my-gigs", { intent: "set-status", gigId: l.gig.id, status: "closed", filled: "yes" })).status).toBe(200);
    expect(await produced({ client: l.client, digger: l.digger, other }, l.gig)).toEqual([
      "bell digger: quote.accepted /messages/{id}",
      "bell digger: quote.declined /messages/{id}",
      "bell other: quote.not-chosen /my-leads",
      'mail digger: Clara accepted your quote for "{gig}"',
      'mail digger: Clara declined your quote for "{gig}"',
      'mail other: The client chose another digger for "{gig}"',
    ]);
  });

  it("a gig closed as filled, a hire and a review (blind in the hire's window, issue 51)", async () => {
    const l = await lead();
    const dialog = (fields: Record<string, string>) => l.client.client.post(`/my-gigs/${l.gig.id}/diggers`, fields);
    expect((await dialog({ intent: "hire", diggerId: l.digger.diggerId })).status).toBe(200);
    expect((await dialog({ intent: "review", diggerId: l.digger.diggerId, rating: "5", body: "Great work, on time and tidy. Would hire again." })).status).toBe(200);
    expect((await l.client.client.post("/my-gigs", { intent: "set-status", gigId: l.gig.id, status: "closed", filled: "yes" })).status).toBe(200);
    const byDate = readerTime(null, app.config).date((await windowOf(app, { gigId: l.gig.id, diggerId: l.digger.diggerId }))!.endsAt);
    expect(await produced({ client: l.client, digger: l.digger }, l.gig)).toEqual([
      "bell digger: gig.filled /my-leads",
      "bell digger: hire.marked /digger/{id}",
      "bell digger: review.waiting /my-leads",
      `mail digger: Clara reviewed you. Write yours by ${byDate} to see it.`,
      'mail digger: The gig "{gig}" has been filled',
      'mail digger: You were marked as hired for "{gig}"',
    ]);
  });

  it("two-way reviews (issue 51): a review of a digger not hired; the digger's review of the client, its reminder, and both shown", async () => {
    const notHired = await lead();
    expect((await notHired.client.client.post(`/my-gigs/${notHired.gig.id}/diggers`, { intent: "review", diggerId: notHired.digger.diggerId, rating: "4", body: "Good advice on the phone, fair quote." })).status).toBe(200);
    expect(await produced({ client: notHired.client, digger: notHired.digger }, notHired.gig)).toEqual(["bell digger: review.received /digger/{id}#reviews", 'mail digger: New review for "{gig}"']);

    const l = await lead();
    const pair = { gigId: l.gig.id, diggerId: l.digger.diggerId };
    const dialog = (fields: Record<string, string>) => l.client.client.post(`/my-gigs/${l.gig.id}/diggers`, { diggerId: l.digger.diggerId, ...fields });
    expect((await dialog({ intent: "hire" })).status).toBe(200);
    await diggerReviewsInWindow(app, { ...pair, clientId: l.client.id, leadPurchaseId: l.purchase.id, rating: 5, body: "Clear brief, paid on the day, easy to reach." });
    await moveWindowBack(app, pair, 12);
    expect(await remindDueWindow(app.services, l.gig.id, l.digger.diggerId)).toBe("sent");
    expect((await dialog({ intent: "review", rating: "5", body: "Great work, on time and tidy. Would hire again." })).status).toBe(200);
    const time = readerTime(null, app.config);
    const byDate = time.date((await windowOf(app, pair))!.endsAt);
    const firstDate = time.date(new Date((await windowOf(app, pair))!.endsAt.getTime() + 12 * 86_400_000));
    expect(await produced({ client: l.client, digger: l.digger }, l.gig)).toEqual([
      "bell client: review.waiting /my-gigs",
      "bell client: review.waiting /my-gigs",
      "bell client: reviews.published /account#client-reviews",
      "bell digger: hire.marked /digger/{id}",
      "bell digger: reviews.published /digger/{id}#reviews",
      `mail client: {handle} reviewed you. Write yours by ${byDate} to see it.`,
      `mail client: {handle} reviewed you. Write yours by ${firstDate} to see it.`,
      'mail client: Your reviews for "{gig}" are now shown',
      'mail digger: You were marked as hired for "{gig}"',
      'mail digger: Your reviews for "{gig}" are now shown',
    ].sort());
  });

  it("lead alerts: an instant alert and the daily digest", async () => {
    const categoryId = await topLevelCategoryId(app);
    const keyword = `kw${randomUUID().slice(0, 8)}`;
    const instant = await diggerWithProfile(app);
    const daily = await diggerWithProfile(app);
    for (const [d, frequency] of [[instant, "instant"], [daily, "daily"]] as const) {
      await db().insert(leadAlertSettings).values({ diggerId: d.diggerId, frequency, keywords: [keyword] });
      await db().insert(leadAlertCategories).values({ diggerId: d.diggerId, categoryId });
    }
    const client = await signUpAs(app, "consumer", "Alma Alerted");
    const gig = await insertGig(app, client.id, { categoryId, title: `A ${keyword} gig to alert` });
    await db().update(gigs).set({ visibleSince: sql`now() - interval '1 hour'` }).where(eq(gigs.id, gig.id));
    await deliverLeadAlertBatch(app.services, gig.id, [instant.diggerId]);
    await sendDailyDigests(app.services);
    expect(await produced({ instant, daily }, gig)).toEqual([
      "bell instant: lead.alert /gig/{id}",
      "mail daily: Your lead alerts: 1 new gig",
      "mail instant: New lead: {gig}",
    ]);
  });

  it("an operator suspends and reinstates an account, hides and restores a gig", async () => {
    const client = await signUpAs(app, "consumer", "Sam Suspended");
    const gig = await insertGig(app, client.id);
    expect((await operator.client.post(`/ops/gigs`, { intent: "hide", gigId: gig.id, reason: "Looks like spam to us." })).status).toBe(200);
    expect((await operator.client.post(`/ops/gigs`, { intent: "restore", gigId: gig.id })).status).toBe(200);
    expect((await operator.client.post(`/ops/users/${client.id}`, { intent: "suspend", reason: "Fraudulent gigs" })).status).toBeLessThan(400);
    expect((await operator.client.post(`/ops/users/${client.id}`, { intent: "reinstate", reason: "Appeal accepted" })).status).toBeLessThan(400);
    expect(await produced({ client }, gig)).toEqual([
      "audit client: gig.hide",
      "audit client: gig.restore",
      "audit client: user.reinstate",
      "audit client: user.suspend",
      "bell client: gig.hidden /my-gigs",
      "bell client: gig.restored /my-gigs",
      "mail client: Your Digs & Gigs account is active again",
      "mail client: Your Digs & Gigs account is suspended",
      'mail client: Your gig "{gig}" is shown again',
      'mail client: Your gig "{gig}" was hidden',
    ]);
  });

  it("an operator approves and rejects proofs of credentials; an approval lapses", async () => {
    const digger = await diggerWithProfile(app);
    const upload = (credential: string) =>
      digger.client.postMultipart(
        "/digger-registration?proof",
        { credential, credentialNumber: `N-${randomUUID().slice(0, 6)}`, credentialExpiry: inDays(200) },
        [{ field: "credentialDocument", file: new File(["%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"], "proof.pdf", { type: "application/pdf" }) }],
      );
    const proof = async (credential: "licensed" | "insured") => {
      expect((await upload(credential)).status).toBe(200);
      const [row] = await db()
        .select()
        .from(credentialDocuments)
        .where(and(eq(credentialDocuments.diggerId, digger.diggerId), eq(credentialDocuments.credential, credential), eq(credentialDocuments.status, "pending")));
      return row!;
    };
    const licence = await proof("licensed");
    expect((await operator.client.post("/ops/verification", { intent: "approve-credential", documentId: licence.id, verifiedUntil: inDays(30) })).status).toBe(200);
    const insurance = await proof("insured");
    expect((await operator.client.post("/ops/verification", { intent: "reject-credential", documentId: insurance.id, reason: "The document is unreadable." })).status).toBe(200);
    await db().update(credentialDocuments).set({ verifiedUntil: inDays(-1) }).where(or(eq(credentialDocuments.id, licence.id)));
    await lapseExpiredCredentials(app.services);
    expect(await produced({ digger })).toEqual([
      "audit digger: credential.approve",
      "audit digger: credential.reject",
      "bell digger: credential.approved /digger-registration#credentials",
      "bell digger: credential.lapsed /digger-registration#credentials",
      "bell digger: credential.rejected /digger-registration#credentials",
      "mail digger: Insured: your proof was not accepted",
      "mail digger: Licensed: verification lapsed",
      "mail digger: Licensed: verified",
    ]);
  });
});
