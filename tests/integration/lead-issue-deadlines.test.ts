/**
 * Refund decisions that cannot stall, and the report window (issue 19; docs/decisions/0020-
 * refund-deadlines.md): an issue gets its client's deadline (`respond_by`) when reported, the
 * client is reminded a day before it while the issue is pending, and a pending issue past it
 * is approved automatically by the `issues.auto-approve` job, refunded exactly once however
 * many runs (or a racing manual decision) meet it. Reports are taken within
 * LEAD_ISSUE_REPORT_DAYS of the purchase only. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideByText, ISSUE_MESSAGES, refundRateText, type GigIssue } from "../../core/lead-issues.ts";
import { queryRows } from "../../server/db/client.ts";
import { OPERATORS_OWN_RECORDS } from "../../core/operator-actions.ts";
import { leadIssues, leadPurchases, operatorActions, refunds } from "../../server/db/schema.ts";
import { SCHEDULES } from "../../server/jobs/queue.ts";
import { readerTime } from "../../server/reader-time.ts";
import { autoApproveOverdueIssues, remindClient } from "../../server/leads/issue-deadlines.ts";
import type { PaymentProvider } from "../../server/payments/provider.ts";
import { changeUser, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobOf, jobsSettled, makeJobDue } from "../support/jobs.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger, type TestGig } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
/** A second server on the same database, configured differently (30-hour window, 30-day reports). */
let other: TestApp;
/** Every call the payment providers of both servers got, by idempotency key. */
const providerCalls: string[] = [];

function countRefunds(payments: PaymentProvider) {
  const refund = payments.refund.bind(payments);
  payments.refund = (request) => {
    providerCalls.push(request.idempotencyKey);
    return refund(request);
  };
}

beforeAll(async () => {
  app = await createTestApp();
  other = await createTestApp({ LEAD_ISSUE_RESPONSE_HOURS: "30", LEAD_ISSUE_REPORT_DAYS: "30" }, { database: app.database });
  countRefunds(app.services.payments);
  countRefunds(other.services.payments);
});
afterAll(async () => {
  await other?.close();
  await app?.close();
});

const db = () => app.database.db;

interface Reported {
  owner: TestUser;
  digger: TestDigger;
  gig: TestGig;
  purchaseId: string;
  issueId: string;
}

const postReport = (client: SessionClient, purchaseId: string, issueType = "mistake") =>
  client.post("/my-leads", { purchaseId, issueType, description: "The client told me the job is already done." });
const decide = (client: SessionClient, gigId: string, issueId: string, decision: "approve" | "reject") =>
  client.post(`/my-gigs/${gigId}/issues`, { issueId, decision });

/** A completed purchase `daysAgo` days old of a new client's gig by a new digger. */
async function purchase(daysAgo = 0, via: TestApp = app) {
  const owner = await signUpAs(via, "consumer", "Dana Deadline");
  const digger = await diggerWithProfile(via);
  const gig = await insertGig(via, owner.id, { budgetMinCents: null, budgetMaxCents: null });
  const row = await insertPurchase(via, gig, digger.diggerId, { purchasedAt: new Date(Date.now() - daysAgo * 24 * 3600 * 1000) });
  return { owner, digger, gig, purchaseId: row.id };
}

/** A purchase with an issue reported through /my-leads of `via`. */
async function reported(via: TestApp = app): Promise<Reported> {
  const lead = await purchase(0, via);
  expect((await postReport(lead.digger.client, lead.purchaseId)).status).toBe(200);
  const [issue] = await db().select({ id: leadIssues.id }).from(leadIssues).where(eq(leadIssues.leadPurchaseId, lead.purchaseId));
  return { ...lead, issueId: issue!.id };
}

const issueRow = async (issueId: string) => (await db().select().from(leadIssues).where(eq(leadIssues.id, issueId)))[0]!;
const refundsOf = (issueId: string) => db().select().from(refunds).where(eq(refunds.leadIssueId, issueId));
/** Moves the issue's deadline `minutes` into the past. */
const overdue = (issueId: string, minutes = 1) =>
  db().execute(sql`update lead_issues set respond_by = now() - make_interval(mins => ${minutes}) where id = ${issueId}`);
const myLeadsHtml = async (digger: TestDigger) => decodeHtml(await (await digger.client.get("/my-leads")).text());
const dialogIssues = async (r: Reported) => ((await (await r.owner.client.get(`/my-gigs/${r.gig.id}/issues`)).json()) as { issues: GigIssue[] }).issues;

describe("the deadline of a reported issue", () => {
  it("is LEAD_ISSUE_RESPONSE_HOURS from the report, shown to the digger as 'The client has until ... to decide' on My Leads, to the client as 'Respond by' in the dialog and the e-mail; the reminder is due a day before", async () => {
    const before = Date.now();
    const r = await reported();
    const issue = await issueRow(r.issueId);
    const hours = (issue.respondBy.getTime() - before) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThan(72.1);
    expect(issue.decidedBy).toBeNull();

    // In each reader's zone (the default setting for an account without one).
    const deadline = readerTime(null, app.config).deadline(issue.respondBy);
    const respondBy = `Respond by ${deadline}`;
    const digger = await myLeadsHtml(r.digger);
    expect(digger).toContain(decideByText(deadline));
    expect(digger).toContain(`The client has until ${deadline} to decide`);
    expect(digger).not.toContain("Respond by");
    const [fromDialog] = await dialogIssues(r);
    expect(fromDialog).toMatchObject({ status: "pending", decidedBy: null, respondBy: issue.respondBy.toISOString(), respondByText: respondBy });

    const [mail] = await mailTo(app, r.owner.email);
    expect(mail!.textBody).toContain(respondBy);
    expect(mail!.textBody).toContain("approved automatically");

    const reminder = await jobOf(db(), "issues.remind", "issueId", r.issueId);
    expect(reminder?.state).toBe("created");
    expect(reminder!.wait_seconds).toBeGreaterThan(48 * 3600 - 120);
    expect(reminder!.wait_seconds).toBeLessThan(48 * 3600 + 10);
  });

  it("is fixed when reported: another setting gives new issues another deadline and leaves existing ones alone", async () => {
    const first = await reported();
    const kept = (await issueRow(first.issueId)).respondBy;
    const r = await reported(other);
    const hours = ((await issueRow(r.issueId)).respondBy.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(29.9);
    expect(hours).toBeLessThan(30.1);
    expect((await issueRow(first.issueId)).respondBy).toEqual(kept);
    // 30 hours: the reminder is due 6 hours from now.
    expect((await jobOf(db(), "issues.remind", "issueId", r.issueId))!.wait_seconds).toBeLessThan(6 * 3600 + 10);
  });
});

describe("the reminder", () => {
  it("e-mails the client while the issue is pending, and not once it is decided", async () => {
    const pending = await reported();
    await makeJobDue(db(), "issues.remind", "issueId", pending.issueId);
    await jobsSettled(db(), "issues.remind");
    const [reminder] = await mailTo(app, pending.owner.email);
    expect(reminder!.subject).toContain("Reminder");
    expect(reminder!.subject).toContain(pending.gig.title);
    expect(reminder!.textBody).toContain(`Respond by ${readerTime(null, app.config).deadline((await issueRow(pending.issueId)).respondBy)}`);
    expect(await mailTo(app, pending.owner.email)).toHaveLength(2);

    const decided = await reported();
    expect((await decide(decided.owner.client, decided.gig.id, decided.issueId, "reject")).status).toBe(200);
    await makeJobDue(db(), "issues.remind", "issueId", decided.issueId);
    await jobsSettled(db(), "issues.remind");
    expect((await jobOf(db(), "issues.remind", "issueId", decided.issueId))!.state).toBe("completed");
    expect(await mailTo(app, decided.owner.email)).toHaveLength(1); // the report's only
    expect(await remindClient(app.services, decided.issueId)).toBe(false);
  });
});

describe("the automatic approval", () => {
  it("approves only overdue issues, refunds once, says 'Approved automatically' to both sides and e-mails both", async () => {
    const due = await reported();
    const notDue = await reported();
    await overdue(due.issueId);
    const digger = await mailTo(app, due.digger.email);
    expect(digger).toHaveLength(0);

    // Through the queue, as the schedule (every 10 minutes, once across servers) runs it.
    const [schedule] = await queryRows<{ cron: string }>(db(), sql`select cron from pgboss.schedule where name = 'issues.auto-approve'`);
    expect(schedule?.cron).toBe(SCHEDULES["issues.auto-approve"]);
    expect(SCHEDULES["issues.auto-approve"]).toBe("*/10 * * * *");
    await app.services.jobs.send("issues.auto-approve", {});
    await jobsSettled(db(), "issues.auto-approve");

    const issue = await issueRow(due.issueId);
    expect(issue).toMatchObject({ status: "approved", decidedBy: "automatic" });
    expect(issue.resolvedAt).toBeInstanceOf(Date);
    const rows = await refundsOf(due.issueId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: "issue_approved", amountCents: 5000, status: "succeeded" });
    expect(providerCalls.filter((key) => key === `refund-${rows[0]!.id}`)).toHaveLength(1);

    expect(await issueRow(notDue.issueId)).toMatchObject({ status: "pending", decidedBy: null });
    expect(await refundsOf(notDue.issueId)).toHaveLength(0);

    const [toDigger] = await mailTo(app, due.digger.email);
    expect(toDigger!.subject).toContain("approved automatically");
    expect(toDigger!.textBody).toContain("$50.00 (100%)");
    const [toClient] = await mailTo(app, due.owner.email);
    expect(toClient!.subject).toContain("approved automatically");
    expect(toClient!.textBody).toContain("$50.00");

    expect(await myLeadsHtml(due.digger)).toMatch(/<button[^>]*disabled[^>]*>Approved automatically<\/button>/);
    expect((await dialogIssues(due))[0]).toMatchObject({ status: "approved", decidedBy: "automatic" });

    // Again: nothing more to do, no second refund, no more e-mail.
    expect(await autoApproveOverdueIssues(app.services)).toBe(0);
    expect(await refundsOf(due.issueId)).toHaveLength(1);
    expect(providerCalls.filter((key) => key === `refund-${rows[0]!.id}`)).toHaveLength(1);
    expect(await mailTo(app, due.digger.email)).toHaveLength(1);
  });

  it("run three times at once on two servers, approves each overdue issue once with one refund", async () => {
    const issues = await Promise.all([reported(), reported(), reported()]);
    for (const r of issues) await overdue(r.issueId);
    const counts = await Promise.all([autoApproveOverdueIssues(app.services), autoApproveOverdueIssues(app.services), autoApproveOverdueIssues(other.services)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    for (const r of issues) {
      expect(await issueRow(r.issueId)).toMatchObject({ status: "approved", decidedBy: "automatic" });
      const rows = await refundsOf(r.issueId);
      expect(rows).toHaveLength(1);
      expect(providerCalls.filter((key) => key === `refund-${rows[0]!.id}`)).toHaveLength(1);
      expect(await mailTo(app, r.digger.email)).toHaveLength(1);
    }
  });

  it("racing the client's approve and reject: exactly one decision and at most one refund", async () => {
    for (let round = 0; round < 3; round++) {
      const r = await reported();
      await overdue(r.issueId);
      const [approve, reject, auto, autoElsewhere] = await Promise.all([
        decide(r.owner.client, r.gig.id, r.issueId, "approve"),
        decide(r.owner.client, r.gig.id, r.issueId, "reject"),
        autoApproveOverdueIssues(app.services),
        autoApproveOverdueIssues(other.services),
      ]);
      // Past the deadline the decision is the automatic approval's, whoever gets the lock.
      expect([approve.status, reject.status]).toEqual([409, 409]);
      expect(auto + autoElsewhere).toBeLessThanOrEqual(1);
      expect(await issueRow(r.issueId)).toMatchObject({ status: "approved", decidedBy: "automatic" });
      expect(await refundsOf(r.issueId)).toHaveLength(1);
      expect(await mailTo(app, r.digger.email)).toHaveLength(1);
    }
  });

  it("leaves an issue the client decided in time alone, and answers a decision after the deadline with the automatic approval", async () => {
    const rejected = await reported();
    expect((await decide(rejected.owner.client, rejected.gig.id, rejected.issueId, "reject")).status).toBe(200);
    await overdue(rejected.issueId);
    await autoApproveOverdueIssues(app.services);
    expect(await issueRow(rejected.issueId)).toMatchObject({ status: "rejected", decidedBy: "client" });
    expect(await refundsOf(rejected.issueId)).toHaveLength(0);

    const late = await reported();
    await overdue(late.issueId);
    const response = await decide(late.owner.client, late.gig.id, late.issueId, "reject");
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("The response deadline has passed: this issue was approved automatically");
    expect(await issueRow(late.issueId)).toMatchObject({ status: "approved", decidedBy: "automatic" });
    expect(await refundsOf(late.issueId)).toHaveLength(1);
  });
});

describe("the bound on automatic approvals (issue 30; decision 0031)", () => {
  /** Another lead of `digger`'s (a new client's gig), with a 'Posted by Mistake' issue reported and overdue. */
  async function overdueIssueOf(digger: TestDigger): Promise<Reported> {
    const owner = await signUpAs(app, "consumer", "Carl Client");
    const gig = await insertGig(app, owner.id, { budgetMinCents: null, budgetMaxCents: null });
    const row = await insertPurchase(app, gig, digger.diggerId);
    expect((await postReport(digger.client, row.id)).status).toBe(200);
    const [issue] = await db().select({ id: leadIssues.id }).from(leadIssues).where(eq(leadIssues.leadPurchaseId, row.id));
    await overdue(issue!.id);
    return { owner, digger, gig, purchaseId: row.id, issueId: issue!.id };
  }
  async function operator() {
    const user = await signUpAs(app, "consumer", "Olga Operator");
    await changeUser(app, user.id, { operatorSince: new Date() });
    return user;
  }
  const hoursFromNow = (date: Date | null) => (date!.getTime() - Date.now()) / 3_600_000;
  const opsDecide = (client: SessionClient, issueId: string, decision: "approve" | "reject") => client.post("/ops/payments", { intent: "decide-issue", issueId, decision });
  const audited = (issueId: string) => db().select().from(operatorActions).where(eq(operatorActions.subjectId, issueId));

  it("approves a digger's first two overdue issues in 30 days, sends the third to the operators with a deadline of their own, and approves it automatically once that has passed", async () => {
    const digger = await diggerWithProfile(app);
    const issues = [await overdueIssueOf(digger), await overdueIssueOf(digger), await overdueIssueOf(digger)];
    // Three runs at once: the digger's row is locked while counting, so never three approvals.
    const counts = await Promise.all([autoApproveOverdueIssues(app.services), autoApproveOverdueIssues(app.services), autoApproveOverdueIssues(app.services)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    const rows = await Promise.all(issues.map((r) => issueRow(r.issueId)));
    expect(rows.filter((row) => row.status === "approved" && row.decidedBy === "automatic")).toHaveLength(2);
    const third = issues[rows.findIndex((row) => row.status === "pending")]!;
    const held = await issueRow(third.issueId);
    expect(held.decidedBy).toBeNull();
    expect(held.escalatedAt).toBeInstanceOf(Date);
    expect(hoursFromNow(held.operatorRespondBy)).toBeGreaterThan(71.9);
    expect(hoursFromNow(held.operatorRespondBy)).toBeLessThan(72.1);
    expect(await refundsOf(third.issueId)).toHaveLength(0);
    expect(await mailTo(app, third.owner.email)).toHaveLength(1); // the report's only

    // The digger's My Leads shows the operators' deadline; the client's late click is answered by it.
    expect(await myLeadsHtml(digger)).toContain(decideByText(readerTime(null, app.config).deadline(held.operatorRespondBy!)));
    const late = await decide(third.owner.client, third.gig.id, third.issueId, "reject");
    expect(late.status).toBe(409);
    expect(await late.text()).toContain(ISSUE_MESSAGES.withOperators);
    expect(await autoApproveOverdueIssues(app.services)).toBe(0);
    expect(await issueRow(third.issueId)).toMatchObject({ status: "pending", decidedBy: null });

    // Nobody decided by the operators' deadline: approved automatically, refunded once.
    await db().execute(sql`update lead_issues set operator_respond_by = now() - interval '1 minute' where id = ${third.issueId}`);
    expect(await autoApproveOverdueIssues(app.services)).toBe(1);
    expect(await issueRow(third.issueId)).toMatchObject({ status: "approved", decidedBy: "automatic" });
    expect(await refundsOf(third.issueId)).toHaveLength(1);
    expect(await autoApproveOverdueIssues(app.services)).toBe(0);

    // Past the window the count starts again: 30 days later, a fourth is approved automatically.
    await db().execute(sql`update lead_issues set resolved_at = now() - interval '31 days' where digger_id = ${digger.diggerId}`);
    const fourth = await overdueIssueOf(digger);
    expect(await autoApproveOverdueIssues(app.services)).toBe(1);
    expect(await issueRow(fourth.issueId)).toMatchObject({ status: "approved", decidedBy: "automatic" });
  });

  it("the client's late click settles like the job: it approves within the bound and sends the issue to the operators past it", async () => {
    const digger = await diggerWithProfile(app);
    const [a, b, c] = [await overdueIssueOf(digger), await overdueIssueOf(digger), await overdueIssueOf(digger)];
    for (const r of [a, b]) expect((await decide(r.owner.client, r.gig.id, r.issueId, "reject")).status).toBe(409);
    const response = await decide(c.owner.client, c.gig.id, c.issueId, "approve");
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(ISSUE_MESSAGES.withOperators);
    expect(await issueRow(c.issueId)).toMatchObject({ status: "pending", decidedBy: null });
    const escalated = await issueRow(c.issueId);
    expect(escalated.escalatedAt).toBeInstanceOf(Date);
    expect(await refundsOf(c.issueId)).toHaveLength(0);
    // The client's dialog says who decides now, and by when (no Approve or Reject).
    expect((await dialogIssues(c))[0]).toMatchObject({ status: "pending", operatorRespondBy: escalated.operatorRespondBy!.toISOString() });
    expect((await dialogIssues(a))[0]).toMatchObject({ status: "approved", decidedBy: "automatic", operatorRespondBy: null });
  });

  it("operators see the issue in the Payments queue with the digger's refund rate and deadline, and approve or reject it (audited, both sides told)", async () => {
    const digger = await diggerWithProfile(app);
    const [, , toApprove] = [await overdueIssueOf(digger), await overdueIssueOf(digger), await overdueIssueOf(digger)];
    await autoApproveOverdueIssues(app.services);
    const toReject = await overdueIssueOf(digger);
    await autoApproveOverdueIssues(app.services);
    const ops = await operator();

    // 2 of 4 purchases refunded so far (90 days), on the queue's rows and the digger's user page.
    const page = decodeHtml(await (await ops.client.get("/ops/payments")).text());
    expect(page).toContain("Overdue issues awaiting an operator");
    expect(page).toContain(`"${toApprove.gig.title}"`);
    expect(page).toContain(refundRateText({ purchases: 4, refunded: 2 }));
    expect(page).toContain(`Decide by ${readerTime(null, app.config).dateTime((await issueRow(toApprove.issueId)).operatorRespondBy!)}`);
    expect(refundRateText({ purchases: 4, refunded: 2 })).toBe("Refund rate (90 days): 50% (2 of 4 purchases)");
    const userPage = decodeHtml(await (await ops.client.get(`/ops/users/${digger.id}`)).text());
    expect(userPage).toContain("Refund rate (90 days)");
    expect(userPage).toContain("50% (2 of 4 purchases)");

    // Not for anyone but an operator; not for an issue that is not with the operators.
    expect((await digger.client.post("/ops/payments", { intent: "decide-issue", issueId: toApprove.issueId, decision: "approve" })).status).toBe(404);
    const fresh = await reported();
    expect((await opsDecide(ops.client, fresh.issueId, "approve")).status).toBe(404);
    expect((await opsDecide(ops.client, "not-a-uuid", "approve")).status).toBe(400);
    expect((await opsDecide(ops.client, toApprove.issueId, "refund-twice" as "approve")).status).toBe(400);
    expect(await issueRow(fresh.issueId)).toMatchObject({ status: "pending" });

    const approved = await opsDecide(ops.client, toApprove.issueId, "approve");
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain("Refund approved.");
    expect(await issueRow(toApprove.issueId)).toMatchObject({ status: "approved", decidedBy: "operator" });
    const [refund] = await refundsOf(toApprove.issueId);
    expect(refund).toMatchObject({ amountCents: 5000, status: "succeeded" });
    expect((await audited(toApprove.issueId)).map((row) => [row.action, row.subjectType, row.subjectUserId, row.operatorId, row.details])).toEqual([
      ["issue.approve", "issue", digger.id, ops.id, { clientUserId: toApprove.owner.id, refundCents: "5000" }],
    ]);
    const [toDigger] = await mailTo(app, digger.email);
    expect(toDigger!.subject).toBe(`Your issue report for "${toApprove.gig.title}" was approved`);
    expect(toDigger!.textBody).toContain("Digs & Gigs approved your report");
    const [toClient] = await mailTo(app, toApprove.owner.email);
    expect(toClient!.subject).toBe(`The issue on your gig "${toApprove.gig.title}" was approved by Digs & Gigs`);
    const again = await opsDecide(ops.client, toApprove.issueId, "reject");
    expect(again.status).toBe(409);
    expect(await refundsOf(toApprove.issueId)).toHaveLength(1);

    expect((await opsDecide(ops.client, toReject.issueId, "reject")).status).toBe(200);
    expect(await issueRow(toReject.issueId)).toMatchObject({ status: "rejected", decidedBy: "operator" });
    expect(await refundsOf(toReject.issueId)).toHaveLength(0);
    expect((await audited(toReject.issueId)).map((row) => row.action)).toEqual(["issue.reject"]);
    expect((await mailTo(app, toReject.owner.email))[0]!.subject).toBe(`The issue on your gig "${toReject.gig.title}" was rejected by Digs & Gigs`);
    expect((await mailTo(app, digger.email))[0]!.subject).toBe(`Your issue report for "${toReject.gig.title}" was rejected`);
    expect(decodeHtml(await (await ops.client.get("/ops/payments")).text())).not.toContain(`"${toReject.gig.title}"`);
  });

  it("an operator's decision after the operators' deadline is answered by the automatic approval", async () => {
    const digger = await diggerWithProfile(app);
    const [, , last] = [await overdueIssueOf(digger), await overdueIssueOf(digger), await overdueIssueOf(digger)];
    await autoApproveOverdueIssues(app.services);
    await db().execute(sql`update lead_issues set operator_respond_by = now() - interval '1 minute' where id = ${last.issueId}`);
    const ops = await operator();
    const response = await opsDecide(ops.client, last.issueId, "reject");
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(ISSUE_MESSAGES.operatorDeadlinePassed);
    expect(await issueRow(last.issueId)).toMatchObject({ status: "approved", decidedBy: "automatic" });
    expect(await refundsOf(last.issueId)).toHaveLength(1);
    expect(await audited(last.issueId)).toHaveLength(0);
  });

  it("an operator cannot decide an issue they are a party to, as its digger or as its client (issue 30, finding 8)", async () => {
    const digger = await diggerWithProfile(app);
    const [, , escalated] = [await overdueIssueOf(digger), await overdueIssueOf(digger), await overdueIssueOf(digger)];
    await autoApproveOverdueIssues(app.services);
    for (const party of [digger, escalated.owner]) {
      await changeUser(app, party.id, { operatorSince: new Date() });
      const response = await opsDecide(party.client, escalated.issueId, "approve");
      expect(response.status).toBe(403);
      expect(await response.text()).toContain(OPERATORS_OWN_RECORDS);
    }
    expect(await issueRow(escalated.issueId)).toMatchObject({ status: "pending", decidedBy: null });
    expect(await refundsOf(escalated.issueId)).toHaveLength(0);
    expect(await audited(escalated.issueId)).toHaveLength(0);
  });
});

describe("the report window", () => {
  it("takes a report 13 days after the purchase, refuses one after 15 days with the date it closed, and My Leads says 'Report window closed'", async () => {
    const recent = await purchase(13);
    expect((await postReport(recent.digger.client, recent.purchaseId)).status).toBe(200);
    const second = await postReport(recent.digger.client, recent.purchaseId, "changed_mind");
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("You have already reported an issue for this lead");

    const old = await purchase(15);
    const [{ purchasedAt }] = (await db().select({ purchasedAt: leadPurchases.purchasedAt }).from(leadPurchases).where(eq(leadPurchases.id, old.purchaseId))) as [
      { purchasedAt: Date },
    ];
    const closed = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(purchasedAt.getTime() + 14 * 86_400_000));
    const late = await postReport(old.digger.client, old.purchaseId);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain(`Report window closed ${closed}: issues can be reported within 14 days of the purchase.`);
    expect(await db().select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, old.purchaseId))).toHaveLength(0);
    expect(await mailTo(app, old.owner.email)).toHaveLength(0);

    const html = await myLeadsHtml(old.digger);
    expect(html).toMatch(new RegExp(`<button[^>]*disabled[^>]*>Report window closed ${closed}</button>`));
    expect(html).not.toContain(">Report Issue<");
    expect(await myLeadsHtml(recent.digger)).not.toContain("Report window closed");

    // A server with LEAD_ISSUE_REPORT_DAYS=30 takes the same late report.
    const there = new SessionClient(other);
    for (const [name, value] of old.digger.client.cookies) there.cookies.set(name, value);
    const elsewhere = await postReport(there, old.purchaseId);
    expect(elsewhere.status).toBe(200);
  });
});

describe("the ledger", () => {
  it("never refunds more than was paid for any purchase", async () => {
    const over = await queryRows<{ id: string }>(
      db(),
      sql`select p.id from lead_purchases p join refunds r on r.lead_purchase_id = p.id
          group by p.id, p.amount_paid_cents having sum(r.amount_cents) > p.amount_paid_cents`,
    );
    expect(over).toEqual([]);
    const approved = await db()
      .select({ id: leadIssues.id })
      .from(leadIssues)
      .where(and(eq(leadIssues.status, "approved")));
    expect(approved.length).toBeGreaterThanOrEqual(8);
    for (const { id } of approved) expect(await refundsOf(id)).toHaveLength(1);
  });
});
