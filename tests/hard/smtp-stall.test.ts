/**
 * Faults (issue 10): an SMTP server that accepts the connection and then stops answering,
 * before its greeting, at EHLO, or after the whole message (the reply to the final "." never
 * comes). The person who sent the contact form gets the answer at once, the e-mail stays in
 * the outbox as pending with the timeout recorded, and once a working server is on the same
 * address the job queue delivers it exactly once. (SMTP down, nothing listening, is in
 * tests/integration/security-faults.test.ts.)
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CONTACT_SENT } from "../../core/contact-schema.ts";
import { emails } from "../../server/db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml } from "../support/leads.ts";
import { makeJobDue } from "../support/jobs.ts";
import { SessionClient } from "../support/session-client.ts";
import { freePort } from "../support/ports.ts";
import { startSmtpServer, startStallingSmtpServer, type StallingSmtpServer } from "../support/smtp.ts";
import { sleep } from "./helpers.ts";

/** The mailer's timeout for each SMTP phase (server/mail/mailer.ts), and some slack. */
const SMTP_TIMEOUT_MS = 10_000;

describe.concurrent.each(["connect", "ehlo", "data"] as const)("an SMTP server that stalls at %s", (stallAt) => {
  let app: TestApp;
  let port: number;
  let stalling: StallingSmtpServer;
  const support = `support-${stallAt}@example.test`;

  beforeAll(async () => {
    port = await freePort();
    stalling = await startStallingSmtpServer(stallAt, { port });
    app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, SUPPORT_EMAIL: support });
  });
  afterAll(async () => {
    await stalling.stop();
    await app.close();
  });

  it("answers the person at once, times out, keeps the e-mail, and the job queue delivers it once later", async () => {
    const subject = `Stalled ${stallAt} ${randomUUID().slice(0, 8)}`;
    const started = performance.now();
    const response = await new SessionClient(app).post("/contact", {
      name: "Ada Lovelace",
      email: "ada@example.com",
      subject,
      message: "Can I post a gig for a job in two different towns?",
    });
    const answeredMs = Math.round(performance.now() - started);
    expect(response.status).toBe(200);
    expect(decodeHtml(await response.text())).toContain(CONTACT_SENT);
    expect(answeredMs).toBeLessThan(3_000);
    // The job queue's worker makes the try, after the answer.
    await vi.waitFor(() => expect(stalling.connections).toBe(1), { timeout: 5_000 });

    // Not delivered: pending while nodemailer waits, then the timeout is recorded.
    const rowOf = async () => (await app.database.db.select().from(emails).where(eq(emails.toAddress, support)))[0]!;
    expect((await rowOf()).status).toBe("pending");
    const deadline = performance.now() + SMTP_TIMEOUT_MS + 5_000;
    while ((await rowOf()).lastError === null && performance.now() < deadline) await sleep(200);
    const timedOutMs = Math.round(performance.now() - started);
    const failed = await rowOf();
    expect(failed).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/timeout|timed out|never received/i);
    expect(timedOutMs).toBeGreaterThanOrEqual(SMTP_TIMEOUT_MS - 500);
    if (stallAt === "data") expect(stalling.messagesHeld).toBe(1);

    // A working server on the same address; the retry is due (as if its 30 s had passed).
    await stalling.stop();
    const smtp = await startSmtpServer({ port });
    try {
      await makeJobDue(app.database.db, "email.deliver", "emailId", failed.id);
      const until = performance.now() + 10_000;
      while ((await rowOf()).status !== "sent" && performance.now() < until) await sleep(100);
      await sleep(3_000); // more polls of the queue's workers: nothing is sent again
      const sent = await rowOf();
      expect(sent).toMatchObject({ status: "sent", attempts: 2 });
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]!.envelope.to).toEqual([support]);
      expect(smtp.messages[0]!.parsed.subject).toContain(subject);
      // The same Message-ID as the stalled try, so a receiver can drop a duplicate.
      expect(smtp.messages[0]!.parsed.messageId).toBe(`<${sent.id}@digsandgigs.local>`);
    } finally {
      await smtp.stop();
    }
    console.info(`SMTP stalled at ${stallAt}: the person answered in ${answeredMs} ms, the try timed out after ${timedOutMs} ms, delivered once by the job queue`);
  });
});
