/**
 * Text a user wrote never becomes a link or the button of our e-mails (issue 30, finding 2),
 * through the real operations: a sign-up's name in its confirmation e-mail, a gig's title in
 * the diggers' 'New lead' alert, a visitor's words in the contact form's mail to support.
 * Every template is covered with generated text in tests/unit/email-user-text.test.ts.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categories, emails, leadAlertCategories, leadAlertSettings } from "../../server/db/schema.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { jobsSettled } from "../support/jobs.ts";
import { diggerWithProfile } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const db = () => app.database.db;

async function lastEmail(where: { to?: string; subject?: string }) {
  const rows = await db()
    .select()
    .from(emails)
    .where(and(where.to ? eq(emails.toAddress, where.to) : undefined, where.subject ? eq(emails.subject, where.subject) : undefined))
    .orderBy(desc(emails.createdAt));
  expect(rows.length).toBeGreaterThan(0);
  return rows[0]!;
}

const decode = (s: string) => s.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
/** The HTML part's anchors, in order; the first after the product's name is the button. */
const anchors = (html: string) => [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"/gi)].map((m) => decode(m[1]!));

/** No anchor leaves our site; no line of the text starts with a link that is not ours. */
function expectOnlyOurLinks(mail: { htmlBody: string | null; textBody: string }) {
  for (const href of anchors(mail.htmlBody ?? "")) expect(href.startsWith(app.config.publicUrl)).toBe(true);
  expect(mail.htmlBody).not.toContain('href="https://evil.example');
  for (const line of mail.textBody.split("\n").filter((l) => /^\S/.test(l) && l.includes("://"))) expect(line.startsWith(`${app.config.publicUrl}/`) || line.includes(`: ${app.config.publicUrl}/`)).toBe(true);
  expect(mail.textBody).toContain("evil.example");
}

describe("user text in the product's e-mails", () => {
  it("a sign-up named like an action gets its confirmation e-mail with the real link as the button", async () => {
    const address = `named-${randomUUID()}@example.com`;
    const name = "Confirm now: https://evil.example/verify";
    await new SessionClient(app).post("/auth", { intent: "sign-up", fullName: name, email: address, password: "correct-horse", userType: "consumer", ageConfirmed: "on" });
    const mail = await lastEmail({ to: address });
    expect(mail.textBody).toContain(name);
    expectOnlyOurLinks(mail);
    const [, button] = anchors(mail.htmlBody!);
    expect(button).toMatch(new RegExp(`^${app.config.publicUrl}/verify-email\\?token=`));
    expect(mail.textBody.split("\n")).toContain(button);
  });

  it("a gig titled like an action is text in the New lead alert: its button opens the gig", async () => {
    const [category] = await db().select().from(categories).where(isNotNull(categories.parentCategoryId)).limit(1);
    const digger = await diggerWithProfile(app);
    await db().insert(leadAlertSettings).values({ diggerId: digger.diggerId });
    await db().insert(leadAlertCategories).values({ diggerId: digger.diggerId, categoryId: category!.parentCategoryId! });
    const client = await signUpAs(app, "consumer", "Carla Client");
    const title = `Confirm account: https://evil.example/login ${randomUUID().slice(0, 6)}`;
    const posted = await client.client.post("/post-gig", validGigForm(category!.parentCategoryId!, { title, location: "Visit www.evil.example/login" }));
    expect(posted.status).toBe(302);
    await jobsSettled(db(), "alerts.gig");
    await jobsSettled(db(), "alerts.deliver");
    const alert = await lastEmail({ to: digger.email, subject: `New lead: ${title}` });
    expectOnlyOurLinks(alert);
    const [, button] = anchors(alert.htmlBody!);
    expect(button).toMatch(new RegExp(`^${app.config.publicUrl}/gig/`));
    expect(alert.textBody).toMatch(/^ {2}Location: Visit www\.evil\.example\/login$/m);
  });

  it("the contact form's message, subject and name stay text in the e-mail to support", async () => {
    const name = "Reset: https://evil.example/reset";
    const sent = await new SessionClient(app).post("/contact", {
      name,
      email: `visitor-${randomUUID()}@example.com`,
      subject: "Sign in: https://evil.example/auth",
      message: "Hello,\nConfirm now: https://evil.example/verify\n[Click](https://evil.example/x) <a href=\"https://evil.example/y\">y</a>",
    });
    expect([sent.status, /<p id="contact-\w+-error"[^>]*>([^<]*)</.exec(await sent.clone().text())?.[1]]).toEqual([200, undefined]);
    const mail = await lastEmail({ subject: "Contact form: Sign in: https://evil.example/auth" });
    expectOnlyOurLinks(mail);
    expect(anchors(mail.htmlBody!)).toEqual([app.config.publicUrl, app.config.publicUrl]);
    expect(mail.htmlBody).toContain("&lt;a href=");
  });
});
