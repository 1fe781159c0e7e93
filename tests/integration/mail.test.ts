import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { emails } from "../../server/db/schema.ts";
import { createMailer, retryDelaySeconds, type OutgoingEmail } from "../../server/mail/mailer.ts";
import { createTestApp } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { freePort } from "../support/ports.ts";
import { startSmtpServer } from "../support/smtp.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
// deliverDue() takes every due row, so each test starts from an empty table.
beforeEach(async () => {
  await database.db.delete(emails);
});

const FROM = "Digs & Gigs <no-reply@example.test>";

function mailer(env: Record<string, string>) {
  const config = loadConfig({ NODE_ENV: "test", MAIL_FROM: FROM, ...env });
  return createMailer({ config, db: database.db, logger: pino({ level: "silent" }) });
}

/** Transactional: promotional e-mail needs a user who accepts it (tests/integration/privacy-email.test.ts). */
function message(overrides: Partial<Omit<OutgoingEmail, "kind">> = {}): OutgoingEmail & { kind: "transactional" } {
  return { to: "alice@example.test", subject: "Hello", text: "Hello Alice.", kind: "transactional", ...overrides };
}

async function row(id: string) {
  const [found] = await database.db.select().from(emails).where(eq(emails.id, id));
  if (!found) throw new Error(`no e-mail row ${id}`);
  return found;
}

/** Makes a pending e-mail due now instead of waiting for its backoff. */
async function makeDue(id: string) {
  await database.db
    .update(emails)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(eq(emails.id, id));
}

describe("SMTP delivery", () => {
  it("delivers at once with the right headers and records the row as sent", async () => {
    const smtp = await startSmtpServer();
    try {
      const id = (await mailer({ SMTP_URL: smtp.url }).send(
        message({
          subject: "Your lead is ready",
          text: "Hello Alice,\nyour lead is ready: http://localhost:3000/my-leads\n",
          html: "<p>Hello Alice</p>",
          replyTo: "support@example.test",
        }),
      ))!;

      expect(smtp.messages).toHaveLength(1);
      const [received] = smtp.messages;
      expect(received!.envelope).toEqual({ from: "no-reply@example.test", to: ["alice@example.test"] });
      expect(received!.parsed.from).toEqual({ name: "Digs & Gigs", address: "no-reply@example.test" });
      expect(received!.parsed.to).toEqual([{ name: "", address: "alice@example.test" }]);
      expect(received!.parsed.replyTo).toEqual([{ name: "", address: "support@example.test" }]);
      expect(received!.parsed.subject).toBe("Your lead is ready");
      // MIME framing may add a line break at the end of the part.
      expect(received!.parsed.text?.trimEnd()).toBe("Hello Alice,\nyour lead is ready: http://localhost:3000/my-leads");
      expect(received!.parsed.html).toContain("<p>Hello Alice</p>");
      expect(received!.parsed.messageId).toBe(`<${id}@example.test>`);

      const sent = await row(id);
      expect(sent).toMatchObject({ status: "sent", attempts: 1, lastError: null, kind: "transactional" });
      expect(sent.sentAt).toBeInstanceOf(Date);
    } finally {
      await smtp.stop();
    }
  });

  it("keeps the e-mail when the server is down and delivers it exactly once when it is back", async () => {
    const port = await freePort();
    const mail = mailer({ SMTP_URL: `smtp://127.0.0.1:${port}` });

    const id = (await mail.send(message({ subject: "Queued while down" })))!;
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    const waitMs = failed.nextAttemptAt.getTime() - Date.now();
    expect(waitMs).toBeGreaterThan(20_000);
    expect(waitMs).toBeLessThanOrEqual(31_000);

    const smtp = await startSmtpServer({ port });
    try {
      expect(await mail.deliverDue()).toBe(0); // not due yet
      expect(smtp.messages).toHaveLength(0);

      await makeDue(id);
      expect(await mail.deliverDue()).toBe(1);
      expect(await mail.deliverDue()).toBe(0);
      expect(smtp.messages.map((m) => m.parsed.subject)).toEqual(["Queued while down"]);
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
    } finally {
      await smtp.stop();
    }
  });

  it("retries a refused message with a growing delay and records the server's reply", async () => {
    const smtp = await startSmtpServer();
    try {
      const mail = mailer({ SMTP_URL: smtp.url });
      smtp.rejectWith = { code: 451, message: "Mailbox busy, try again later" };

      const id = (await mail.send(message({ subject: "Try, try again" })))!;
      let pending = await row(id);
      expect(pending).toMatchObject({ status: "pending", attempts: 1 });
      expect(pending.lastError).toContain("451");

      await makeDue(id);
      expect(await mail.deliverDue()).toBe(0);
      pending = await row(id);
      expect(pending.attempts).toBe(2);
      const waitMs = pending.nextAttemptAt.getTime() - Date.now();
      expect(waitMs).toBeGreaterThan(50_000);
      expect(waitMs).toBeLessThanOrEqual(61_000);

      smtp.rejectWith = null;
      await makeDue(id);
      expect(await mail.deliverDue()).toBe(1);
      expect(smtp.rejected).toBe(2);
      expect(smtp.messages).toHaveLength(1);
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 3 });
    } finally {
      await smtp.stop();
    }
  });

  it("delivers each due e-mail once when two passes run at the same time", async () => {
    const smtp = await startSmtpServer();
    try {
      const subjects = Array.from({ length: 25 }, (_, i) => `Concurrent ${String(i).padStart(2, "0")}`);
      await database.db.insert(emails).values(
        subjects.map((subject) => ({
          toAddress: "bob@example.test",
          subject,
          textBody: "Hello Bob.",
          kind: "transactional" as const,
          nextAttemptAt: sql`now() - interval '1 minute'`,
        })),
      );
      // Two mailers, as two server processes would have.
      const [first, second] = await Promise.all([
        mailer({ SMTP_URL: smtp.url }).deliverDue(),
        mailer({ SMTP_URL: smtp.url }).deliverDue(),
      ]);

      expect(first + second).toBe(25);
      expect(smtp.messages.map((m) => m.parsed.subject).sort()).toEqual(subjects);
      const rows = await database.db.select().from(emails);
      expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
    } finally {
      await smtp.stop();
    }
  });

  it("the retry worker delivers due e-mail on its timer and stops cleanly", async () => {
    const smtp = await startSmtpServer();
    try {
      const port = await freePort();
      const id = (await mailer({ SMTP_URL: `smtp://127.0.0.1:${port}` }).send(message({ subject: "For the worker" })))!;
      await makeDue(id);

      const stop = mailer({ SMTP_URL: smtp.url }).startRetryWorker(50);
      await vi.waitFor(() => expect(smtp.messages).toHaveLength(1), { timeout: 5000 });
      await stop();
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
    } finally {
      await smtp.stop();
    }
  });

  it("backs off 30 s, 1 min, 2 min ... up to an hour", () => {
    expect([1, 2, 3, 4, 7, 8, 50].map(retryDelaySeconds)).toEqual([30, 60, 120, 240, 1920, 3600, 3600]);
  });
});

describe("outbox transport", () => {
  it("stores the e-mail as kept and sends nothing", async () => {
    const smtp = await startSmtpServer();
    try {
      const mail = mailer({ MAIL_TRANSPORT: "outbox", SMTP_URL: smtp.url });
      const id = (await mail.send(message({ subject: "Kept locally" })))!;

      expect(await row(id)).toMatchObject({ status: "kept", attempts: 0, kind: "transactional", sentAt: null });
      expect(await mail.deliverDue()).toBe(0);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await smtp.stop();
    }
  });
});

describe("deleted accounts", () => {
  it("sends nothing to a purged account's .invalid address and records nothing", async () => {
    const mail = mailer({ MAIL_TRANSPORT: "outbox" });
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
          text: "Open https://digsandgigs.local/reset-password?token=abc123. It expires in an hour.",
        }),
      );
      const response = await app.request("/dev/mail");
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain("Reset your password");
      expect(html).toContain("carol@example.test");
      expect(html).toContain("kept");
      expect(html).toMatch(/<a [^>]*href="https:\/\/digsandgigs\.local\/reset-password\?token=abc123"[^>]*>/);
    } finally {
      await app.close();
    }
  });

  it("answers 404 in production", async () => {
    const app = await createTestApp({
      NODE_ENV: "production",
      // Only for the configuration: the app still runs on the test database.
      DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
      BETTER_AUTH_SECRET: "a-test-secret-that-is-long-enough-000",
      PUBLIC_URL: "http://localhost:3000",
      PAYMENTS_PROVIDER: "test",
      MAIL_TRANSPORT: "outbox",
    });
    try {
      expect(app.config.mode).toBe("production");
      expect((await app.request("/dev/mail")).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
