import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { emails } from "../../server/db/schema.ts";
import { createJobQueue, type JobHandlers, type JobQueue } from "../../server/jobs/queue.ts";
import { action, paragraph } from "../../server/mail/content.ts";
import { createMailer, type Mailer, type OutgoingEmail } from "../../server/mail/mailer.ts";
import { createTestApp, PRODUCTION_ENV } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { jobOf, jobsSettled, makeJobDue } from "../support/jobs.ts";
import { freePort } from "../support/ports.ts";
import { startSmtpServer } from "../support/smtp.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(async () => {
  await database.db.delete(emails);
});
// Each test's processes stop with it: a worker left running would deliver the next test's e-mail.
const queues: JobQueue[] = [];
const mailers: Mailer[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
  for (const m of mailers.splice(0)) m.close();
});

const FROM = "Digs & Gigs <no-reply@example.test>";
const logger = pino({ level: "silent" });
const notHere = () => Promise.reject(new Error("not a job of this test"));

/**
 * A mailer as a server process has it: its own job queue on the shared test database, whose
 * workers deliver e-mail (`working: false` for a process that only enqueues).
 */
async function mailer(env: Record<string, string>, { working = true } = {}): Promise<Mailer> {
  const config = loadConfig({ NODE_ENV: "test", MAIL_FROM: FROM, ...env });
  const jobs = createJobQueue(database, logger);
  queues.push(jobs);
  await jobs.start();
  const mail = createMailer({ config, db: database.db, logger, jobs });
  mailers.push(mail);
  const handlers: JobHandlers = { "email.deliver": (batch) => mail.deliver(batch.map((job) => job.emailId)), "refund.send": notHere, "accounts.purge": notHere, "issues.auto-approve": notHere, "issues.remind": notHere, "alerts.gig": notHere, "alerts.deliver": notHere, "alerts.digest": notHere, "credentials.lapse": notHere, "messages.notify": notHere, "messages.tell": notHere, "messages.tell-sweep": notHere, "push.send": notHere, "push.purge": notHere, "notices.prune": notHere, "guarantee.check": notHere, "guarantee.sweep": notHere, "visit.remind": notHere, "visit.reminders-sweep": notHere, "reviews.publish": notHere, "reviews.remind": notHere, "reviews.sweep": notHere };
  if (working) await jobs.work(handlers);
  return mail;
}

/** Transactional: promotional e-mail needs a user who accepts it (tests/integration/privacy-email.test.ts). */
function message(overrides: Partial<Omit<OutgoingEmail, "kind">> = {}): OutgoingEmail & { kind: "transactional" } {
  return { to: "alice@example.test", subject: "Hello", content: [paragraph("Hello Alice.")], kind: "transactional", ...overrides };
}

async function row(id: string) {
  const [found] = await database.db.select().from(emails).where(eq(emails.id, id));
  if (!found) throw new Error(`no e-mail row ${id}`);
  return found;
}

const deliveryJob = (emailId: string) => jobOf(database.db, "email.deliver", "emailId", emailId);
const makeDue = (emailId: string) => makeJobDue(database.db, "email.deliver", "emailId", emailId);

/** Waits until the e-mail's `attempts`-th try failed and its job waits for the next. */
async function failedTry(emailId: string, attempts: number) {
  await vi.waitFor(
    async () => {
      expect(await row(emailId)).toMatchObject({ status: "pending", attempts });
      expect((await deliveryJob(emailId))?.state).toBe("retry");
    },
    { timeout: 10_000 },
  );
  return (await deliveryJob(emailId))!;
}

describe("SMTP delivery through the job queue", () => {
  it("records the e-mail, answers without waiting for the server, and the queue delivers it with the right headers", async () => {
    const smtp = await startSmtpServer();
    try {
      const mail = await mailer({ SMTP_URL: smtp.url });
      const id = (await mail.send(
        message({
          subject: "Your lead is ready",
          content: [paragraph("Hello Alice,", "your lead is ready."), action("Your leads", "http://localhost:3000/my-leads")],
          replyTo: "support@example.test",
        }),
      ))!;

      await vi.waitFor(() => expect(smtp.messages).toHaveLength(1), { timeout: 10_000 });
      const [received] = smtp.messages;
      expect(received!.envelope).toEqual({ from: "no-reply@example.test", to: ["alice@example.test"] });
      expect(received!.parsed.from).toEqual({ name: "Digs & Gigs", address: "no-reply@example.test" });
      expect(received!.parsed.to).toEqual([{ name: "", address: "alice@example.test" }]);
      expect(received!.parsed.replyTo).toEqual([{ name: "", address: "support@example.test" }]);
      expect(received!.parsed.subject).toBe("Your lead is ready");
      // MIME framing may add a line break at the end of the part.
      expect(received!.parsed.text?.trimEnd()).toBe("Hello Alice,\nyour lead is ready.\n\nYour leads: http://localhost:3000/my-leads");
      // The HTML part: the same content, in React Email inside the product's layout.
      expect(received!.parsed.html).toMatch(/^<!DOCTYPE html/);
      expect(received!.parsed.html).toContain("Hello Alice,<br/>your lead is ready.</p>");
      expect(received!.parsed.html).toMatch(/<a [^>]*href="http:\/\/localhost:3000\/my-leads"[^>]*>Your leads<\/a>/);
      expect(received!.parsed.html).toContain("Digs &amp; Gigs");
      expect(received!.parsed.messageId).toBe(`<${id}@example.test>`);

      await vi.waitFor(async () => expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, lastError: null, kind: "transactional" }));
      expect((await row(id)).sentAt).toBeInstanceOf(Date);
      await vi.waitFor(async () => expect((await deliveryJob(id))?.state).toBe("completed"));
    } finally {
      await smtp.stop();
    }
  });

  it("an e-mail and its job are written together: a send that enqueues nothing records nothing", async () => {
    const mail = await mailer({ SMTP_URL: "smtp://127.0.0.1:1" }, { working: false });
    const id = (await mail.send(message({ subject: "Enqueued" })))!;
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await deliveryJob(id)).toMatchObject({ state: "created", retry_count: 0 });
  });

  it("keeps the e-mail when the server is down and delivers it exactly once when it is back", async () => {
    const port = await freePort();
    const mail = await mailer({ SMTP_URL: `smtp://127.0.0.1:${port}` });

    const id = (await mail.send(message({ subject: "Queued while down" })))!;
    const job = await failedTry(id, 1);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    // Backoff from 30 s, with jitter.
    expect(job.wait_seconds).toBeGreaterThan(10);
    expect(job.wait_seconds).toBeLessThanOrEqual(65);

    const smtp = await startSmtpServer({ port });
    try {
      await makeDue(id);
      await vi.waitFor(async () => expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 }), { timeout: 10_000 });
      expect(smtp.messages.map((m) => m.parsed.subject)).toEqual(["Queued while down"]);
    } finally {
      await smtp.stop();
    }
  });

  it("retries a refused message with a growing delay and records the server's reply", async () => {
    const smtp = await startSmtpServer();
    try {
      const mail = await mailer({ SMTP_URL: smtp.url });
      smtp.rejectWith = { code: 451, message: "Mailbox busy, try again later" };

      const id = (await mail.send(message({ subject: "Try, try again" })))!;
      const first = await failedTry(id, 1);
      expect(await row(id)).toMatchObject({ status: "pending", attempts: 1 });
      expect((await row(id)).lastError).toContain("451");

      await makeDue(id);
      const second = await failedTry(id, 2);
      expect((await row(id)).attempts).toBe(2);
      expect(second.wait_seconds).toBeGreaterThan(first.wait_seconds - 35);
      expect(second.wait_seconds).toBeGreaterThan(50);
      expect(second.wait_seconds).toBeLessThanOrEqual(125);

      smtp.rejectWith = null;
      await makeDue(id);
      await vi.waitFor(async () => expect(await row(id)).toMatchObject({ status: "sent", attempts: 3 }), { timeout: 10_000 });
      expect(smtp.rejected).toBe(2);
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await smtp.stop();
    }
  });

  it("keeps a delivery that keeps failing as a failed job, counted for operators", async () => {
    const mail = await mailer({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    const jobs = queues[0]!;
    const id = (await mail.send(message({ subject: "Never arrives" })))!;
    await failedTry(id, 1);
    // As if it had already used up its retries: the next failure is its last.
    await makeJobDue(database.db, "email.deliver", "emailId", id, { exhausted: true });
    await vi.waitFor(async () => expect((await deliveryJob(id))?.state).toBe("failed"), { timeout: 10_000 });
    expect(await row(id)).toMatchObject({ status: "pending" });
    const depth = await jobs.depth();
    expect(depth.find((q) => q.queue === "email.deliver")?.failed).toBeGreaterThanOrEqual(1);
  });

  it("delivers each e-mail once when the workers of two servers run at the same time", async () => {
    const smtp = await startSmtpServer();
    try {
      // Three processes: one enqueues, two deliver.
      const sender = await mailer({ SMTP_URL: smtp.url }, { working: false });
      await mailer({ SMTP_URL: smtp.url });
      await mailer({ SMTP_URL: smtp.url });
      const subjects = Array.from({ length: 25 }, (_, i) => `Concurrent ${String(i).padStart(2, "0")}`);
      const ids = await Promise.all(subjects.map((subject) => sender.send(message({ to: "bob@example.test", subject }))));

      await vi.waitFor(() => expect(smtp.messages).toHaveLength(25), { timeout: 20_000 });
      expect(smtp.messages.map((m) => m.parsed.subject).sort()).toEqual(subjects);
      // The mail server has each message before its job records it as sent.
      await vi.waitFor(async () => {
        const rows = await database.db.select().from(emails);
        expect(rows.filter((r) => ids.includes(r.id)).map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ["sent", 1]));
      });
    } finally {
      await smtp.stop();
    }
  });
});

describe("batched delivery over pooled SMTP connections (issue 35)", () => {
  it("sends a batch of many e-mails over a few connections, each exactly once", async () => {
    const smtp = await startSmtpServer();
    try {
      const sender = await mailer({ SMTP_URL: smtp.url }, { working: false });
      const subjects = Array.from({ length: 120 }, (_, i) => `Batch ${String(i).padStart(3, "0")}`);
      const ids = await Promise.all(subjects.map((subject) => sender.send(message({ to: "dora@example.test", subject }))));
      await mailer({ SMTP_URL: smtp.url });

      await vi.waitFor(() => expect(smtp.messages).toHaveLength(120), { timeout: 30_000 });
      await vi.waitFor(async () => {
        const rows = await database.db.select().from(emails);
        expect(rows.filter((r) => ids.includes(r.id)).map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ["sent", 1]));
      });
      await jobsSettled(database.db);
      expect(smtp.messages.map((m) => m.parsed.subject).sort()).toEqual(subjects);
      // Each with its own stable Message-ID.
      expect(new Set(smtp.messages.map((m) => m.parsed.messageId)).size).toBe(120);
      // The pool: at most 5 connections at once, each for up to 100 messages (not one per e-mail).
      expect(smtp.connections).toBeGreaterThanOrEqual(1);
      expect(smtp.connections).toBeLessThanOrEqual(10);
    } finally {
      await smtp.stop();
    }
  });

  it("retries the one message the server refuses on its own, with backoff, and sends the rest once", async () => {
    const smtp = await startSmtpServer();
    try {
      smtp.refuseRecipient = { address: "refused@example.test", code: 550, message: "No such mailbox here" };
      const sender = await mailer({ SMTP_URL: smtp.url }, { working: false });
      const subjects = Array.from({ length: 30 }, (_, i) => `Mixed ${String(i).padStart(2, "0")}`);
      const ids = await Promise.all(subjects.map((subject) => sender.send(message({ to: "erin@example.test", subject }))));
      const refusedId = (await sender.send(message({ to: "refused@example.test", subject: "Refused once" })))!;
      await mailer({ SMTP_URL: smtp.url });

      const job = await failedTry(refusedId, 1);
      expect((await row(refusedId)).lastError).toContain("550");
      // Its own backoff: from 30 s, with jitter.
      expect(job.wait_seconds).toBeGreaterThan(10);
      expect(job.wait_seconds).toBeLessThanOrEqual(65);
      await vi.waitFor(() => expect(smtp.messages).toHaveLength(30), { timeout: 20_000 });
      await vi.waitFor(async () => {
        const rows = await database.db.select().from(emails);
        expect(rows.filter((r) => ids.includes(r.id)).map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ["sent", 1]));
      });
      for (const id of ids) expect((await deliveryJob(id!))?.state).toBe("completed");

      smtp.refuseRecipient = null;
      await makeDue(refusedId);
      await vi.waitFor(async () => expect(await row(refusedId)).toMatchObject({ status: "sent", attempts: 2 }), { timeout: 10_000 });
      await jobsSettled(database.db);
      expect(smtp.rejected).toBe(1);
      expect(smtp.messages).toHaveLength(31);
      expect(smtp.messages.map((m) => m.parsed.subject).sort()).toEqual([...subjects, "Refused once"].sort());
    } finally {
      await smtp.stop();
    }
  });
});

describe("outbox transport", () => {
  it("stores the e-mail as kept and sends nothing", async () => {
    const smtp = await startSmtpServer();
    try {
      const mail = await mailer({ MAIL_TRANSPORT: "outbox", SMTP_URL: smtp.url });
      const id = (await mail.send(message({ subject: "Kept locally" })))!;

      expect(await row(id)).toMatchObject({ status: "kept", attempts: 0, kind: "transactional", sentAt: null });
      expect(await deliveryJob(id)).toBeUndefined();
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await smtp.stop();
    }
  });
});

describe("deleted accounts", () => {
  it("sends nothing to a purged account's .invalid address and records nothing", async () => {
    const mail = await mailer({ MAIL_TRANSPORT: "outbox" }, { working: false });
    const subject = `For nobody ${Date.now()}`;
    expect(await mail.send(message({ to: "deleted-abc123@invalid", subject }))).toBeNull();
    const rows = await database.db.select().from(emails).where(eq(emails.subject, subject));
    expect(rows).toHaveLength(0);
  });
});

describe("/dev/mail", () => {
  it("lists recorded e-mail in local mode, with links that can be followed", async () => {
    const app = await createTestApp();
    try {
      await app.mailer.send(
        message({
          to: "carol@example.test",
          subject: "Reset your password",
          content: [action("Open reset password", "https://digsandgigs.local/reset-password?token=abc123", ""), paragraph("It expires in an hour."), paragraph("Carol: https://evil.example/x")],
        }),
      );
      const response = await app.request("/dev/mail");
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain("Reset your password");
      expect(html).toContain("carol@example.test");
      expect(html).toContain("kept");
      expect(html).toMatch(/<a [^>]*href="https:\/\/digsandgigs\.local\/reset-password\?token=abc123"[^>]*>/);
      // A line of text that is not the template's action stays text, as in the e-mail's HTML.
      expect(html).toContain("Carol: https://evil.example/x");
      expect(html).not.toContain('href="https://evil.example');
    } finally {
      await app.close();
    }
  });

  it("shows only one address's e-mail with ?to=, whatever its case", async () => {
    const app = await createTestApp();
    try {
      await app.mailer.send(message({ to: "dana@example.test", subject: "For Dana", content: [paragraph("Hello Dana.")] }));
      await app.mailer.send(message({ to: "erin@example.test", subject: "For Erin", content: [paragraph("Hello Erin.")] }));
      const html = await (await app.request("/dev/mail?to=DANA%40example.test")).text();
      expect(html).toContain("For Dana");
      expect(html).not.toContain("For Erin");
      expect(html).toContain("recorded to DANA@example.test");
      const all = await (await app.request("/dev/mail")).text();
      expect(all).toContain("For Dana");
      expect(all).toContain("For Erin");
    } finally {
      await app.close();
    }
  });

  it("answers 404 in production", async () => {
    const app = await createTestApp(PRODUCTION_ENV);
    try {
      expect(app.config.mode).toBe("production");
      expect((await app.request("/dev/mail")).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
