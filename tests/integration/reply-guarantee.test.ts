/**
 * The reply guarantee's check (issue 48; server/leads/settle-guarantee.ts): a purchase is
 * covered when its digger's first message or quote comes within 24 hours of buying, which starts
 * one `guarantee.check` job for 48 hours later; then, unless the client opened the thread, wrote
 * in it (in the product or by e-mail), decided a quote or hired anyone, it is refunded in full,
 * exactly once, through the refund path, and the digger is told (bell and e-mail). A pending
 * issue skips it, a part already refunded is not refunded again, and past 3 in 30 days the
 * operators decide. Times are moved back in the database, as the issue-deadline tests do. The
 * race with the client's first read runs on PostgreSQL. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { createTransport, type Transporter } from "nodemailer";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPrice } from "../../core/money.ts";
import { GUARANTEE_REFUNDS_PER_DIGGER, guaranteeRefundedNotice } from "../../core/reply-guarantee.ts";
import { startInboundSmtp, type InboundSmtp } from "../../server/conversations/inbound/listener.ts";
import { queryRows } from "../../server/db/client.ts";
import { leadPurchases, messages, notifications, refunds, threads } from "../../server/db/schema.ts";
import { SCHEDULES } from "../../server/jobs/queue.ts";
import { completeCheckout } from "../../server/leads/fulfilment.ts";
import { leadLedger } from "../../server/leads/my-leads.ts";
import { settleGuarantee, sweepDueGuarantees } from "../../server/leads/settle-guarantee.ts";
import { replyAddress } from "../../server/mail/reply-address.ts";
import type { PaymentProvider } from "../../server/payments/provider.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobOf, jobsSettled, makeJobDue } from "../support/jobs.ts";
import { boughtLead, diggerWithProfile, insertGig, insertPurchase, mailTo, type BoughtLead, type TestDigger } from "../support/leads.ts";
import { freePort } from "../support/ports.ts";
import { declineQuoteForm, sendQuoteForm } from "../support/quotes.ts";

let app: TestApp;
let listener: InboundSmtp;
let smtp: Transporter;
/** Every refund the payment provider was asked for, by idempotency key. */
const providerCalls: string[] = [];

beforeAll(async () => {
  app = await createTestApp();
  const refund = app.services.payments.refund.bind(app.services.payments);
  (app.services.payments as PaymentProvider).refund = (request) => {
    providerCalls.push(request.idempotencyKey);
    return refund(request);
  };
  // Replies by e-mail: the real inbound listener; the test users' domain publishes no policy.
  const resolver = async (name: string) => {
    throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  listener = await startInboundSmtp(app.services, { host: "127.0.0.1", port: await freePort(), resolver });
  smtp = createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
}, 60_000);
afterAll(async () => {
  smtp?.close();
  await listener?.close();
  await app?.close();
});

const db = () => app.database.db;
const HOUR = 3_600_000;
const FIXED = { type: "fixed", amount: "800", included: "Labour and materials" };

/** A lead bought through the checkout by `digger` (a new one by default), its thread made with it. */
async function leadOf(digger?: TestDigger): Promise<BoughtLead> {
  if (!digger) return boughtLead(app);
  const client = await signUpAs(app, "consumer", "Clara Client");
  const gig = await insertGig(app, client.id);
  const purchase = await insertPurchase(app, gig, digger.diggerId, { status: "pending", purchasedAt: null });
  expect(await completeCheckout(app.services, purchase.providerSessionId!, "pi_test")).toBe("completed");
  const [thread] = await db().select().from(threads).where(eq(threads.purchaseId, purchase.id));
  return { client, digger, gig, purchaseId: purchase.id, threadId: thread!.id };
}

/** Moves the purchase, its thread and its guarantee `hours` into the past. */
async function age(lead: BoughtLead, hours: number) {
  const by = sql`make_interval(secs => ${hours * 3600})`;
  await db().execute(
    sql`update lead_purchases set purchased_at = purchased_at - ${by}, guarantee_due_at = guarantee_due_at - ${by} where id = ${lead.purchaseId}`,
  );
  await db().execute(
    sql`update threads set created_at = created_at - ${by}, digger_first_at = digger_first_at - ${by}, client_first_reply_at = client_first_reply_at - ${by} where id = ${lead.threadId}`,
  );
}

const write = async (lead: BoughtLead, who: "digger" | "client", body: string) => {
  const sent = await lead[who].client.post(`/messages/${lead.threadId}`, { intent: "send", body, js: "1" });
  expect(sent.status).toBe(200);
};

/** A lead whose digger wrote first at once: covered, and due an hour ago once aged 49 hours. */
async function coveredLead(digger?: TestDigger): Promise<BoughtLead> {
  const lead = await leadOf(digger);
  await write(lead, "digger", "Hello, I can do this next week.");
  return lead;
}
const makeDue = (lead: BoughtLead) => age(lead, 49);

const purchaseRow = async (purchaseId: string) => (await db().select().from(leadPurchases).where(eq(leadPurchases.id, purchaseId)))[0]!;
const refundsOf = (purchaseId: string) => db().select().from(refunds).where(eq(refunds.leadPurchaseId, purchaseId));
const checkJobs = (purchaseId: string) =>
  queryRows<{ state: string }>(db(), sql`select state::text as state from pgboss.job where name = 'guarantee.check' and data->>'purchaseId' = ${purchaseId}`);
const fullyRefunded = async (purchaseId: string) =>
  (await queryRows<{ full: boolean }>(db(), sql`select purchase_fully_refunded(${purchaseId}::uuid) as full`))[0]!.full;

/** Settles the lead's guarantee (the sweep may have done it already) and answers its outcome. */
async function settled(lead: BoughtLead) {
  await settleGuarantee(app.services, lead.purchaseId);
  return (await purchaseRow(lead.purchaseId)).guaranteeOutcome;
}

describe("covered or not", () => {
  it("a first message 23 hours after buying covers the purchase: due 48 hours after it, and one guarantee.check job waits for then", async () => {
    const lead = await leadOf();
    await age(lead, 23);
    await write(lead, "digger", "Sorry for the wait, I can come on Monday.");
    const row = await purchaseRow(lead.purchaseId);
    const [thread] = await db().select().from(threads).where(eq(threads.id, lead.threadId));
    expect(row.guaranteeDueAt!.getTime() - thread!.diggerFirstAt!.getTime()).toBe(48 * HOUR);
    const job = await jobOf(db(), "guarantee.check", "purchaseId", lead.purchaseId);
    expect(job?.state).toBe("created");
    expect(job!.wait_seconds).toBeGreaterThan(48 * 3600 - 60);
    expect(job!.wait_seconds).toBeLessThan(48 * 3600 + 60);

    // Later messages, the client's reply, a quote, and another start of the same check: still one job.
    await write(lead, "digger", "Also, do you have parking?");
    await write(lead, "client", "Yes, in front.");
    await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    expect(await app.services.jobs.send("guarantee.check", { purchaseId: lead.purchaseId })).toBeNull();
    expect(await checkJobs(lead.purchaseId)).toEqual([{ state: "created" }]);
  });

  it("a first message 25 hours after buying does not: nothing is due, no job, the check and the sweep leave it alone", async () => {
    const lead = await leadOf();
    await age(lead, 25);
    await write(lead, "digger", "Sorry for the wait.");
    expect((await purchaseRow(lead.purchaseId)).guaranteeDueAt).toBeNull();
    expect(await checkJobs(lead.purchaseId)).toEqual([]);
    await age(lead, 72);
    expect(await settleGuarantee(app.services, lead.purchaseId)).toBeNull();
    await sweepDueGuarantees(app.services);
    expect(await purchaseRow(lead.purchaseId)).toMatchObject({ guaranteeOutcome: null, guaranteeSettledAt: null });
    expect(await refundsOf(lead.purchaseId)).toEqual([]);
  });

  it("a quote as the first answer covers it too, with its one job", async () => {
    const lead = await leadOf();
    await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    expect((await purchaseRow(lead.purchaseId)).guaranteeDueAt).toBeInstanceOf(Date);
    expect(await checkJobs(lead.purchaseId)).toEqual([{ state: "created" }]);
    await write(lead, "digger", "Any questions about the quote?");
    expect(await checkJobs(lead.purchaseId)).toHaveLength(1);
  });

  it("a client who writes first starts nothing; the digger's answer then does", async () => {
    const lead = await leadOf();
    await write(lead, "client", "Are you available?");
    expect(await checkJobs(lead.purchaseId)).toEqual([]);
    await write(lead, "digger", "Yes.");
    expect(await checkJobs(lead.purchaseId)).toEqual([{ state: "created" }]);
  });
});

describe("the refund after 48 hours", () => {
  it("its job refunds in full once: the refund row, the provider asked once, the ledger, the digger's bell entry and e-mail", async () => {
    const lead = await coveredLead();
    const paid = (await purchaseRow(lead.purchaseId)).amountPaidCents;
    // Not before it is due.
    expect(await settleGuarantee(app.services, lead.purchaseId)).toBeNull();
    await makeDue(lead);

    await makeJobDue(db(), "guarantee.check", "purchaseId", lead.purchaseId);
    await jobsSettled(db(), "guarantee.check");
    expect(await checkJobs(lead.purchaseId)).toEqual([{ state: "completed" }]);
    const row = await purchaseRow(lead.purchaseId);
    expect(row.guaranteeOutcome).toBe("refunded");
    expect(row.guaranteeSettledAt).toBeInstanceOf(Date);
    const [refund, ...more] = await refundsOf(lead.purchaseId);
    expect(more).toEqual([]);
    expect(refund).toMatchObject({ reason: "reply_guarantee", amountCents: paid, status: "succeeded", leadIssueId: null });
    expect(providerCalls.filter((key) => key === `refund-${refund!.id}`)).toHaveLength(1);
    expect(await fullyRefunded(lead.purchaseId)).toBe(true);
    const ledger = await leadLedger(db(), lead.digger.diggerId);
    expect(ledger.allTime).toMatchObject({ spentCents: paid, refundedCents: paid, netCents: 0 });
    expect(ledger.last30Days.refundedCents).toBe(paid);

    const notice = guaranteeRefundedNotice(lead.gig.title);
    const bell = await db().select().from(notifications).where(eq(notifications.userId, lead.digger.id));
    expect(bell.filter((n) => n.text === notice)).toHaveLength(1);
    expect(bell.find((n) => n.text === notice)!.link).toBe("/my-leads");
    const mails = (await mailTo(app, lead.digger.email)).filter((m) => m.subject === notice);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain(formatPrice(paid));
    expect(mails[0]!.textBody).toContain("The thread stays open");

    // Again, three ways at once: nothing more.
    await Promise.all([settleGuarantee(app.services, lead.purchaseId), settleGuarantee(app.services, lead.purchaseId), sweepDueGuarantees(app.services)]);
    expect(await refundsOf(lead.purchaseId)).toHaveLength(1);
    expect(providerCalls.filter((key) => key === `refund-${refund!.id}`)).toHaveLength(1);
    expect((await mailTo(app, lead.digger.email)).filter((m) => m.subject === notice)).toHaveLength(1);
    expect(await purchaseRow(lead.purchaseId)).toMatchObject({ guaranteeOutcome: "refunded", guaranteeSettledAt: row.guaranteeSettledAt });
  });

  it("the sweep, every 5 minutes, settles every due purchase and only those, the answered ones too", async () => {
    expect(SCHEDULES["guarantee.sweep"]).toBe("*/5 * * * *");
    const [schedule] = await queryRows<{ cron: string }>(db(), sql`select cron from pgboss.schedule where name = 'guarantee.sweep'`);
    expect(schedule?.cron).toBe("*/5 * * * *");
    const due = [await coveredLead(), await coveredLead(), await coveredLead()];
    const notDue = await coveredLead();
    // The round's answered ones are settled together: a hired one and an opened one among them.
    const hired = await coveredLead();
    expect((await hired.client.client.post(`/my-gigs/${hired.gig.id}/diggers`, { intent: "hire", diggerId: hired.digger.diggerId })).status).toBeLessThan(400);
    const opened = await coveredLead();
    await db().update(threads).set({ clientOpenedAt: sql`now()` }).where(eq(threads.id, opened.threadId));
    for (const lead of [...due, hired, opened]) await makeDue(lead);
    await app.services.jobs.send("guarantee.sweep", {});
    await jobsSettled(db(), "guarantee.sweep");
    for (const lead of due) {
      expect((await purchaseRow(lead.purchaseId)).guaranteeOutcome).toBe("refunded");
      expect(await refundsOf(lead.purchaseId)).toHaveLength(1);
    }
    for (const lead of [hired, opened]) {
      expect((await purchaseRow(lead.purchaseId)).guaranteeOutcome).toBe("answered");
      expect(await refundsOf(lead.purchaseId)).toEqual([]);
    }
    expect((await purchaseRow(notDue.purchaseId)).guaranteeOutcome).toBeNull();
    expect(await refundsOf(notDue.purchaseId)).toEqual([]);
  });

  it("a purchase partly refunded already gets only the rest back", async () => {
    const lead = await coveredLead();
    const paid = (await purchaseRow(lead.purchaseId)).amountPaidCents;
    await db().insert(refunds).values({ leadPurchaseId: lead.purchaseId, reason: "duplicate_payment", amountCents: 1500, status: "succeeded", completedAt: new Date() });
    await makeDue(lead);
    expect(await settled(lead)).toBe("refunded");
    const guarantee = (await refundsOf(lead.purchaseId)).filter((r) => r.reason === "reply_guarantee");
    expect(guarantee.map((r) => r.amountCents)).toEqual([paid - 1500]);
    expect(await fullyRefunded(lead.purchaseId)).toBe(true);
    const [mail] = (await mailTo(app, lead.digger.email)).filter((m) => m.subject === guaranteeRefundedNotice(lead.gig.title));
    expect(mail!.textBody).toContain(formatPrice(paid - 1500));
  });

  it("a purchase refunded in full already is skipped, with no refund", async () => {
    const lead = await coveredLead();
    await db().insert(refunds).values({ leadPurchaseId: lead.purchaseId, reason: "duplicate_payment", amountCents: (await purchaseRow(lead.purchaseId)).amountPaidCents });
    await makeDue(lead);
    expect(await settled(lead)).toBe("skipped");
    expect((await refundsOf(lead.purchaseId)).filter((r) => r.reason === "reply_guarantee")).toEqual([]);
  });
});

describe("what stops it: 'answered'", () => {
  const expectAnswered = async (lead: BoughtLead) => {
    await makeDue(lead);
    expect(await settled(lead)).toBe("answered");
    expect((await purchaseRow(lead.purchaseId)).guaranteeSettledAt).toBeInstanceOf(Date);
    expect(await refundsOf(lead.purchaseId)).toEqual([]);
    expect(await fullyRefunded(lead.purchaseId)).toBe(false);
    expect((await mailTo(app, lead.digger.email)).filter((m) => m.subject === guaranteeRefundedNotice(lead.gig.title))).toEqual([]);
  };

  it("the client opened the thread", async () => {
    const lead = await coveredLead();
    await db().update(threads).set({ clientOpenedAt: sql`now()` }).where(eq(threads.id, lead.threadId));
    await expectAnswered(lead);
  });

  it("the client replied in the product", async () => {
    const lead = await coveredLead();
    await write(lead, "client", "Monday works.");
    await expectAnswered(lead);
  });

  it("the client replied by e-mail (the inbound path)", async () => {
    const lead = await coveredLead();
    const to = replyAddress(app.config.inbound!, app.config.authSecret, lead.threadId, { id: lead.client.id, replyKeyGeneration: 0 }, new Date());
    const info = await smtp.sendMail({ from: lead.client.email, to, subject: "Re: New message", text: "Monday is fine by me.", messageId: `<${randomUUID()}@mail.example.com>` });
    expect(info.accepted).toEqual([to]);
    const posted = await db().select().from(messages).where(and(eq(messages.threadId, lead.threadId), eq(messages.senderId, lead.client.id)));
    expect(posted.map((m) => m.body)).toEqual(["Monday is fine by me."]);
    await expectAnswered(lead);
  });

  it("the client decided a quote in the thread", async () => {
    const lead = await leadOf();
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await declineQuoteForm(app, lead.client.id, lead.threadId, sent.quoteId);
    await expectAnswered(lead);
  });

  it("the client hired someone on the gig", async () => {
    const lead = await coveredLead();
    const hired = await lead.client.client.post(`/my-gigs/${lead.gig.id}/diggers`, { intent: "hire", diggerId: lead.digger.diggerId });
    expect(hired.status).toBeLessThan(400);
    await expectAnswered(lead);
  });
});

describe("what skips it, and its bound", () => {
  it("an issue pending on the purchase: 'skipped', no refund by the guarantee", async () => {
    const lead = await coveredLead();
    const reported = await lead.digger.client.post("/my-leads", { purchaseId: lead.purchaseId, issueType: "mistake", description: "The client never answers my messages." });
    expect(reported.status).toBe(200);
    await makeDue(lead);
    expect(await settled(lead)).toBe("skipped");
    expect(await refundsOf(lead.purchaseId)).toEqual([]);
  });

  it(`past ${GUARANTEE_REFUNDS_PER_DIGGER} refunds in 30 days, the digger's next one goes to the operators: 'escalated', no refund`, async () => {
    const digger = await diggerWithProfile(app);
    const leads: BoughtLead[] = [];
    for (let i = 0; i <= GUARANTEE_REFUNDS_PER_DIGGER; i += 1) leads.push(await coveredLead(digger));
    // Due one after the other, so that any run settles them in this order.
    for (const [i, lead] of leads.entries()) await age(lead, 49 + leads.length - i);
    const outcomes = [];
    for (const lead of leads) outcomes.push(await settled(lead));
    expect(outcomes).toEqual([...Array<string>(GUARANTEE_REFUNDS_PER_DIGGER).fill("refunded"), "escalated"]);
    const last = await purchaseRow(leads.at(-1)!.purchaseId);
    expect(last.guaranteeSettledAt).toBeInstanceOf(Date);
    expect(await refundsOf(last.id)).toEqual([]);
    // The operators' queue: escalated purchases by guarantee_settled_at (lead_purchases_guarantee_escalated_idx).
    const queue = await db().select({ id: leadPurchases.id }).from(leadPurchases).where(eq(leadPurchases.guaranteeOutcome, "escalated"));
    expect(queue.map((q) => q.id)).toContain(last.id);
    // Another digger is not held back by this one's bound.
    expect(await settled(await coveredLead().then(async (l) => (await makeDue(l), l)))).toBe("refunded");
  });
});

// Two transactions at once need two connections: PostgreSQL only (PGlite has one).
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("the check and the client's first read, at once (PostgreSQL)", () => {
  it("exactly one outcome each time, by the check or the sweep: refunded when the read came after the refund's commit, answered when the read came first; never both", async () => {
    const seen = { refunded: 0, answered: 0 };
    const reader = new pg.Client({ connectionString: app.database.url! });
    await reader.connect();
    try {
      for (let round = 0; round < 24; round += 1) {
        const lead = await coveredLead();
        await makeDue(lead);
        const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 4)));
        // The client's first read, as the thread's page writes it, in its own transaction; what it
        // sees of the check right after its write tells which came first.
        const read = (async () => {
          if (round % 2 === 0) await jitter();
          await reader.query("BEGIN");
          await reader.query("UPDATE threads SET client_opened_at = now() WHERE id = $1 AND client_opened_at IS NULL", [lead.threadId]);
          const { rows } = await reader.query<{ n: number }>("SELECT count(*)::int AS n FROM refunds WHERE lead_purchase_id = $1", [lead.purchaseId]);
          await reader.query("COMMIT");
          return rows[0]!.n > 0;
        })();
        const check = (async () => {
          if (round % 2 === 1) await jitter();
          // One purchase at a time (the job's check), or the sweep's round (its answered ones settled together).
          return round % 4 < 2 ? settleGuarantee(app.services, lead.purchaseId) : sweepDueGuarantees(app.services);
        })();
        const [refundCameFirst] = await Promise.all([read, check]);
        const row = await purchaseRow(lead.purchaseId);
        const refundRows = await refundsOf(lead.purchaseId);
        expect(row.guaranteeOutcome).toBe(refundCameFirst ? "refunded" : "answered");
        expect(refundRows).toHaveLength(refundCameFirst ? 1 : 0);
        expect((await db().select().from(threads).where(eq(threads.id, lead.threadId)))[0]!.clientOpenedAt).toBeInstanceOf(Date);
        seen[refundCameFirst ? "refunded" : "answered"] += 1;
      }
    } finally {
      await reader.end();
    }
    expect(seen.refunded + seen.answered).toBe(24);
  }, 120_000);
});
