/**
 * /contact: the page's support details from configuration, the spec's validation messages,
 * real delivery to the support address over SMTP (read back from a local SMTP server) with
 * the sender as reply-to, and the per-IP limit.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails } from "../../server/db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobsSettled } from "../support/jobs.ts";
import { SessionClient } from "../support/session-client.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";

const SUPPORT = "help-desk@example.test";
const PHONE = "+1 (555) 010-4242";
const SENT = "Message sent successfully! We'll get back to you soon.";

let app: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await createTestApp({ SMTP_URL: smtp.url, SUPPORT_EMAIL: SUPPORT, SUPPORT_PHONE: PHONE });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
});

/** A complete form with a unique subject, to find its e-mail among the others. */
const form = (fields: Partial<Record<string, string>> = {}) =>
  ({
    name: "Grace Hopper",
    email: "grace@example.com",
    subject: `Question ${randomUUID()}`,
    message: "How do refunds work for a lead that was posted by mistake?",
    ...fields,
  }) as Record<string, string>;

/** The messages with that subject, once the job queue has delivered what was sent so far. */
const receivedWithSubject = async (subject: string) => {
  await jobsSettled(app.database.db);
  return smtp.messages.filter((m) => m.parsed.subject === subject);
};

describe("the page", () => {
  it("shows the form and the configured support e-mail and phone line with its hours", async () => {
    const response = await new SessionClient(app).get("/contact");
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const text of ["Contact Us", "Send Message", "Start a conversation", "View FAQs", "Monday to Friday, 9am to 6pm EST"]) {
      expect(html).toContain(text);
    }
    expect(html).toContain(`href="mailto:${SUPPORT}"`);
    expect(html).toContain(`href="tel:+15550104242"`);
    expect(html).toContain(PHONE);
    expect(html).toMatch(/<textarea[^>]*name="message"[^>]*>/);
    const textarea = /<textarea[^>]*>/.exec(html)![0];
    expect(textarea).toContain('rows="6"');
    expect(textarea).toContain('maxLength="1000"');
    expect(html).toContain("0/1000 characters");
  });
});

describe("sending a message", () => {
  it("delivers it to the support address with the sender as reply-to, and answers with the spec's message", async () => {
    const fields = form({ message: "Line one.\r\nLine two." });
    const response = await new SessionClient(app).post("/contact", fields);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(SENT);

    // The SMTP server stores a message before the mailer sees its reply, so it is here already.
    const [received, ...more] = await receivedWithSubject(`Contact form: ${fields.subject}`);
    expect(more).toEqual([]);
    expect(received!.envelope.to).toEqual([SUPPORT]);
    expect(received!.parsed.to).toEqual([{ name: "", address: SUPPORT }]);
    expect(received!.parsed.replyTo).toEqual([{ name: "", address: "grace@example.com" }]);
    const text = received!.parsed.text ?? "";
    expect(text).toContain("Grace Hopper <grace@example.com> wrote through the Digs & Gigs contact form.");
    expect(text).toContain(`Subject: ${fields.subject}`);
    expect(text).toContain("Account: not signed in");
    expect(text).toContain("Line one.\nLine two.");

    const [row] = await app.database.db.select().from(emails).where(eq(emails.subject, `Contact form: ${fields.subject}`));
    expect(row).toMatchObject({ status: "sent", toAddress: SUPPORT, replyTo: "grace@example.com", kind: "transactional" });
  });

  it("names the sender in the e-mail subject when the form has none", async () => {
    const name = `Sender ${randomUUID()}`;
    const response = await new SessionClient(app).post("/contact", form({ name, subject: "" }));
    expect(response.status).toBe(200);
    const [received] = await receivedWithSubject(`Contact form: message from ${name}`);
    expect(received?.parsed.text).toContain("Subject: (none)");
  });

  it("tells support which account wrote, when the sender is signed in", async () => {
    const client = new SessionClient(app);
    const accountEmail = `member-${randomUUID()}@example.com`;
    const signUp = await client.post("/auth?redirect=/", {
      intent: "sign-up",
      fullName: "Member Person",
      email: accountEmail,
      password: "correct-horse",
      userType: "digger",
      ageConfirmed: "on",
    });
    expect(signUp.status).toBe(302);
    const fields = form();
    expect((await client.post("/contact", fields)).status).toBe(200);
    const [received] = await receivedWithSubject(`Contact form: ${fields.subject}`);
    expect(received?.parsed.text).toMatch(new RegExp(`Account: signed in as ${accountEmail} \\(digger, id \\S+\\)`));
  });
});

describe("validation (spec sections 5 and 8)", () => {
  it.each([
    [{ name: "" }, "Please fill in all required fields", "Name is required"],
    [{ email: "  " }, "Please fill in all required fields", "Email is required"],
    [{ message: "" }, "Please fill in all required fields", "Message is required"],
    [{ email: "grace-at-example.com" }, "Please enter a valid email address", "Enter an e-mail address such as name@example.com"],
    [{ name: "n".repeat(101) }, "Name must be at most 100 characters", "Name must be at most 100 characters"],
    [{ subject: "s".repeat(201) }, "Subject must be at most 200 characters", "Subject must be at most 200 characters"],
    [{ message: "m".repeat(1001) }, "Message must be at most 1000 characters", "Message must be at most 1000 characters"],
  ])("rejects %j with the spec's notice and the field's own message, and sends nothing", async (change, notice, fieldMessage) => {
    const fields = form(change);
    const response = await new SessionClient(app).post("/contact", fields);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(notice);
    // Beside the field, in the server-rendered page.
    expect(html).toMatch(new RegExp(`<p id="contact-\\w+-error"[^>]*>${fieldMessage}</p>`));
    const stored = await app.database.db.select().from(emails).where(eq(emails.subject, `Contact form: ${fields.subject}`));
    expect(stored).toEqual([]);
    expect(await receivedWithSubject(`Contact form: ${fields.subject}`)).toEqual([]);
  });
});

describe("rate limit", () => {
  it("accepts five messages per address in ten minutes, then answers 429 with a clear message; other addresses are not affected", async () => {
    const client = new SessionClient(app);
    // Invalid forms send nothing and do not count.
    for (let i = 0; i < 3; i++) expect((await client.post("/contact", form({ message: "" }))).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await client.post("/contact", form())).status).toBe(200);

    const fields = form();
    const limited = await client.post("/contact", fields);
    expect(limited.status).toBe(429);
    const html = await limited.text();
    expect(html).toContain("You have sent several messages in a short time. Please wait a few minutes and try again");
    expect(html).toContain(SUPPORT);
    expect(await receivedWithSubject(`Contact form: ${fields.subject}`)).toEqual([]);

    const other = await new SessionClient(app).post("/contact", form());
    expect(other.status).toBe(200);
  });
});
