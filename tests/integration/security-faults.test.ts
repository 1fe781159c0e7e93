/**
 * Faults (issue 10), without touching the shared PostgreSQL server: the SMTP server down
 * while users act (contact form, password reset), and Stripe's API answering 500 or never
 * answering while a digger buys a lead. Users get their answer quickly, e-mail is delivered
 * by the retry once SMTP is back, and the server keeps serving afterwards. And a PostgreSQL
 * server that never answers: the pool gives up after its connect timeout.
 * (The mailer's own retry rules are in mail.test.ts.)
 */
import { randomUUID } from "node:crypto";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CONTACT_SENT } from "../../core/contact-schema.ts";
import { openDatabase } from "../../server/db/client.ts";
import { emails, leadPurchases } from "../../server/db/schema.ts";
import { createStripeProvider } from "../../server/payments/stripe-provider.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile, insertGig, type TestDigger } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";
import { makeJobDue } from "../support/jobs.ts";
import { freePort } from "../support/ports.ts";
import { startSmtpServer } from "../support/smtp.ts";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";

const faults: string[] = [];

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, Math.round(performance.now() - started)];
}

/** The server still answers pages, its readiness check, and a signed-in page. */
async function stillServing(app: TestApp, client: SessionClient) {
  expect((await app.request("/")).status).toBe(200);
  expect((await app.request("/readyz")).status).toBe(200);
  expect((await client.get("/my-gigs")).status).toBe(200);
}

describe("SMTP server down", () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, SUPPORT_EMAIL: "support@example.test" });
  });
  afterAll(() => app.close());

  it("the contact form and a password reset succeed for the user; the retry delivers both once SMTP is back", async () => {
    const subject = `Question ${randomUUID().slice(0, 8)}`;
    const [contact, contactMs] = await timed(() =>
      new SessionClient(app).post("/contact", { name: "Grace Hopper", email: "grace@example.com", subject, message: "How do refunds work for a lead posted by mistake?" }),
    );
    expect(contact.status).toBe(200);
    expect(decodeHtml(await contact.text())).toContain(CONTACT_SENT);

    const user = await signUpAs(app, "consumer", "Reset Person");
    const [reset, resetMs] = await timed(() => new SessionClient(app).post("/auth", { intent: "forgot-password", email: user.email }));
    expect(reset.status).toBe(200);
    expect(Math.max(contactMs, resetMs)).toBeLessThan(5_000);

    // The job queue tried each once (the requests did not wait for it), and keeps both.
    await vi.waitFor(
      async () => {
        const pending = await app.database.db.select().from(emails).where(eq(emails.status, "pending"));
        expect(pending.map((e) => e.toAddress).sort()).toEqual(["support@example.test", user.email].sort());
        for (const row of pending) expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
      },
      { timeout: 10_000 },
    );
    await stillServing(app, user.client);

    const smtp = await startSmtpServer({ port });
    try {
      for (const row of await app.database.db.select().from(emails).where(eq(emails.status, "pending"))) {
        await makeJobDue(app.database.db, "email.deliver", "emailId", row.id);
      }
      await vi.waitFor(() => expect(smtp.messages).toHaveLength(2), { timeout: 10_000 });
      const received = smtp.messages.map((m) => m.envelope.to[0]).sort();
      expect(received).toEqual(["support@example.test", user.email].sort());
      expect(smtp.messages.find((m) => m.envelope.to[0] === "support@example.test")!.parsed.subject).toContain(subject);
      // The mail server has each message before its job records it as sent.
      await vi.waitFor(async () => expect(await app.database.db.select().from(emails).where(eq(emails.status, "pending"))).toHaveLength(0));
    } finally {
      await smtp.stop();
    }
    faults.push(`SMTP down: contact form ${contactMs} ms, password reset ${resetMs} ms, both delivered by the retry`);
  });
});

describe("Stripe's API failing or hanging during checkout creation", () => {
  let app: TestApp;
  let stripeApi: StripeStandIn;
  let digger: TestDigger;
  let client: Awaited<ReturnType<typeof signUpAs>>;

  beforeAll(async () => {
    stripeApi = await startStripeStandIn();
    app = await createTestApp({ STRIPE_SECRET_KEY: "sk_test_faults", STRIPE_WEBHOOK_SECRET: "whsec_faults", STRIPE_API_URL: stripeApi.url });
    [client, digger] = await Promise.all([signUpAs(app, "consumer"), diggerWithProfile(app)]);
  });
  afterAll(async () => {
    await app.close();
    await stripeApi.stop();
  });

  async function buy() {
    const gig = await insertGig(app, client.id);
    const [response, ms] = await timed(() => digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }));
    const statuses = (await app.database.db.select().from(leadPurchases).where(eq(leadPurchases.gigId, gig.id))).map((p) => p.status);
    return { response, ms, statuses, text: await response.text() };
  }

  async function buysAgain() {
    stripeApi.mode = "ok";
    const after = await buy();
    expect(after.response.status).toBe(302);
    expect(after.statuses).toEqual(["pending"]);
    await stillServing(app, client.client);
  }

  it("answers 500s: 'Failed to create checkout session' after the SDK's retries, then works again", async () => {
    stripeApi.mode = "fail";
    const before = stripeApi.requests.length;
    const failed = await buy();
    expect(failed.response.status).toBe(502);
    expect(failed.text).toContain("Failed to create checkout session");
    expect(failed.statuses).toEqual(["cancelled"]);
    expect(stripeApi.requests.length - before).toBe(3); // the first try and 2 retries
    expect(failed.ms).toBeLessThan(10_000);
    await buysAgain();
    faults.push(`Stripe 500: answered in ${failed.ms} ms after 3 tries`);
  });

  it("hangs: the SDK timeout bounds the wait, the user gets the message, then it works again", async () => {
    // Production waits 15 s per try; the same provider with a short timeout keeps the test quick.
    const payments = app.services.payments;
    const config = app.config.payments;
    if (config.provider !== "stripe") throw new Error("expected the Stripe provider");
    app.services.payments = createStripeProvider({ ...config, timeoutMs: 1_000 });
    try {
      stripeApi.mode = "hang";
      const hung = await buy();
      expect(hung.response.status).toBe(502);
      expect(hung.text).toContain("Failed to create checkout session");
      expect(hung.statuses).toEqual(["cancelled"]);
      // Three tries of 1 s plus the SDK's back-off between them.
      expect(hung.ms).toBeGreaterThanOrEqual(1_000);
      expect(hung.ms).toBeLessThan(10_000);
      await buysAgain();
      faults.push(`Stripe hang (1 s timeout): answered in ${hung.ms} ms`);
    } finally {
      app.services.payments = payments;
      stripeApi.mode = "ok";
    }
  });

  it("reports the faults survived", () => {
    console.info(`faults survived: ${faults.length}; ${faults.join("; ")}`);
    expect(faults).toHaveLength(3);
  });
});

describe("a PostgreSQL server that accepts connections and never answers", () => {
  it("fails the query after the connect timeout instead of holding it", async () => {
    // A frozen server: the kernel completes the TCP handshake, nothing ever answers after it.
    const sockets = new Set<Socket>();
    const frozen = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => frozen.listen(0, "127.0.0.1", resolve));
    const { port } = frozen.address() as AddressInfo;
    const handle = await openDatabase({ kind: "postgres", url: `postgres://postgres@127.0.0.1:${port}/frozen`, connectTimeoutMs: 500 });
    try {
      const [outcome, ms] = await timed(() =>
        handle.db.execute(sql`select 1`).then(
          () => "answered",
          (error: unknown) => `${String(error)} ${String((error as { cause?: unknown }).cause)}`,
        ),
      );
      expect(sockets.size).toBe(1);
      expect(outcome).toMatch(/timeout/i);
      expect(ms).toBeGreaterThanOrEqual(450);
      expect(ms).toBeLessThan(5_000);
    } finally {
      await handle.close();
      for (const socket of sockets) socket.destroy();
      frozen.close();
    }
  });
});
