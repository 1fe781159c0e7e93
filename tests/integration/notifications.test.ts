/**
 * Notifications people expect (issue 21): each event gives its recipient, and nobody else,
 * an entry in the bell and an e-mail, written in the event's transaction through notify();
 * every e-mail the product sends is multipart, with its text as written and an HTML part
 * rendered with React Email; the bell counts, lists (newest first, 20 a page) and marks read
 * only its owner's notifications.
 */
import { randomUUID } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diggerReferences, emails, leadIssues, notifications, referenceContactRequests } from "../../server/db/schema.ts";
import { encodeCursor } from "../../server/pagination.ts";
import { autoApproveOverdueIssues, remindClient } from "../../server/leads/issue-deadlines.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { action, paragraph } from "../../server/mail/content.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobsSettled } from "../support/jobs.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, type TestDigger, type TestGig } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";

let app: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
});

const db = () => app.database.db;
const handleOf = (user: { id: string }) => `d_${user.id.replace(/[^a-z0-9]/gi, "").slice(0, 20).toLowerCase()}`;
const bellOf = (userId: string) => db().select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt));
const mailsOf = (userId: string) => db().select().from(emails).where(eq(emails.userId, userId)).orderBy(desc(emails.createdAt));
/** The messages the SMTP peer received for `address`, once the queue delivered what was sent. */
async function receivedBy(address: string) {
  await jobsSettled(db());
  return smtp.messages.filter((m) => m.envelope.to.includes(address));
}
/** The unread count the top bar shows to this client (the bell's label). */
async function bellLabel(client: SessionClient): Promise<string | null> {
  const html = decodeHtml(await (await client.get("/how-it-works")).text());
  return /aria-label="(Notifications(?:, [\d+]+ unread)?)"/.exec(html)?.[1] ?? null;
}

/** Expects exactly one notification of `kind` for `user`, and its e-mail, and returns both. */
async function expectNotified(user: TestUser, kind: string, { text, link, subject }: { text: string | RegExp; link: string; subject: string | RegExp }) {
  const entries = (await bellOf(user.id)).filter((n) => n.kind === kind);
  expect(entries).toHaveLength(1);
  const [entry] = entries;
  if (typeof text === "string") expect(entry!.text).toBe(text);
  else expect(entry!.text).toMatch(text);
  expect(entry!.link).toBe(link);
  expect(entry!.readAt).toBeNull();
  const mails = (await mailsOf(user.id)).filter((m) => (typeof subject === "string" ? m.subject === subject : subject.test(m.subject)));
  expect(mails).toHaveLength(1);
  expect(mails[0]).toMatchObject({ toAddress: user.email, kind: "transactional" });
  // Multipart: the text as written and the HTML part, as the mail server received them.
  const [message] = (await receivedBy(user.email)).filter((m) => m.parsed.subject === mails[0]!.subject);
  expect(message!.parsed.text?.trimEnd()).toBe(mails[0]!.textBody);
  expect(message!.parsed.html).toMatch(/^<!DOCTYPE html/);
  return { entry: entry!, mail: mails[0]!, html: decodeHtml(message!.parsed.html!) };
}

async function expectNoneOf(users: TestUser[], kind: string) {
  for (const user of users) expect((await bellOf(user.id)).filter((n) => n.kind === kind)).toEqual([]);
}

interface Lead {
  client: TestUser;
  digger: TestDigger;
  gig: TestGig;
  purchaseId: string;
}

async function boughtLead(): Promise<Lead> {
  const client = await signUpAs(app, "consumer", "Clara Client");
  const digger = await diggerWithProfile(app);
  const gig = await insertGig(app, client.id);
  const purchase = await insertPurchase(app, gig, digger.diggerId);
  return { client, digger, gig, purchaseId: purchase.id };
}

describe("a digger bought your lead", () => {
  it("tells the client who bought it, with the profile link, through the test checkout; nobody else", async () => {
    const client = await signUpAs(app, "consumer", "Clara Client");
    const digger = await diggerWithProfile(app);
    const bystander = await signUpAs(app, "consumer", "Other Client");
    const gig = await insertGig(app, client.id);

    const start = await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    expect((await digger.client.post(location(start)!, { intent: "pay" })).status).toBe(302);

    const line = `${handleOf(digger)} bought your lead for "${gig.title}"`;
    const { html } = await expectNotified(client, "lead.bought", { text: line, link: `/digger/${digger.diggerId}`, subject: line });
    expect(html).toContain(`href="${app.config.publicUrl}/digger/${digger.diggerId}"`);
    await expectNoneOf([digger, bystander], "lead.bought");
  });
});

describe("lead issues", () => {
  it("a report tells the client, with the response deadline; the decision tells the digger", async () => {
    const lead = await boughtLead();
    const description = "They hired someone else. See https://evil.example/phish";
    const reported = await lead.digger.client.post("/my-leads", { intent: "report-issue", purchaseId: lead.purchaseId, issueType: "already_filled", description });
    expect(reported.status).toBe(200);

    const { entry, mail, html } = await expectNotified(lead.client, "issue.reported", {
      text: new RegExp(`^${handleOf(lead.digger)} reported an issue with your gig "${lead.gig.title}"\\. Respond by .+\\.$`),
      link: "/my-gigs",
      subject: `A digger reported an issue with your gig "${lead.gig.title}"`,
    });
    expect(mail.textBody).toMatch(/Respond by .+: an issue not answered by then is approved automatically/);
    expect(entry.text).toContain(/Respond by (.+):/.exec(mail.textBody)![1]);
    // The richer body: the digger's words are quoted as text, their link never made a button or anchor.
    expect(html).toContain("Already Found Digger");
    expect(html).toContain("https://evil.example/phish");
    expect(html).not.toContain('href="https://evil.example');
    expect(html).toContain(`href="${app.config.publicUrl}/my-gigs"`);
    await expectNoneOf([lead.digger], "issue.reported");

    const [issue] = await db().select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, lead.purchaseId));
    expect((await lead.client.client.post(`/my-gigs/${lead.gig.id}/issues`, { issueId: issue!.id, decision: "approve" })).status).toBe(200);
    await expectNotified(lead.digger, "issue.decided", {
      text: new RegExp(`^Your issue report for "${lead.gig.title}" was approved: \\$[\\d.]+ refunded$`),
      link: "/my-leads",
      subject: `Your issue report for "${lead.gig.title}" was approved`,
    });
    await expectNoneOf([lead.client], "issue.decided");
  });

  it("a rejection tells the digger there is no refund; the reminder reaches the client's bell", async () => {
    const lead = await boughtLead();
    await lead.digger.client.post("/my-leads", { intent: "report-issue", purchaseId: lead.purchaseId, issueType: "mistake", description: "Wrong lead." });
    const [issue] = await db().select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, lead.purchaseId));
    expect(await remindClient(app.services, issue!.id)).toBe(true);
    await expectNotified(lead.client, "issue.reminder", {
      text: new RegExp(`^Reminder: an issue on your gig "${lead.gig.title}" is waiting for you\\. Respond by .+\\.$`),
      link: "/my-gigs",
      subject: `Reminder: respond to the issue on your gig "${lead.gig.title}"`,
    });

    await lead.client.client.post(`/my-gigs/${lead.gig.id}/issues`, { issueId: issue!.id, decision: "reject" });
    await expectNotified(lead.digger, "issue.decided", {
      text: `Your issue report for "${lead.gig.title}" was rejected: no refund`,
      link: "/my-leads",
      subject: `Your issue report for "${lead.gig.title}" was rejected`,
    });
  });
});

describe("decided without the client", () => {
  it("an issue past its deadline is approved automatically: both sides are told", async () => {
    const lead = await boughtLead();
    await lead.digger.client.post("/my-leads", { intent: "report-issue", purchaseId: lead.purchaseId, issueType: "mistake", description: "Wrong lead." });
    await db().update(leadIssues).set({ respondBy: sql`now() - interval '1 minute'` }).where(eq(leadIssues.leadPurchaseId, lead.purchaseId));
    // The queue's own run may take it first: either way it is decided once, by the deadline.
    await autoApproveOverdueIssues(app.services);
    await expectNotified(lead.client, "issue.auto-approved", {
      text: `An issue on your gig "${lead.gig.title}" was approved automatically: the digger is refunded, you pay nothing`,
      link: "/my-gigs",
      subject: `An issue on your gig "${lead.gig.title}" was approved automatically`,
    });
    await expectNotified(lead.digger, "issue.decided", {
      text: new RegExp(`^Your issue report for "${lead.gig.title}" was approved automatically: \\$[\\d.]+ refunded$`),
      link: "/my-leads",
      subject: `Your issue report for "${lead.gig.title}" was approved automatically`,
    });
  });

  it("a payment for a lead closed meanwhile: the digger is told of the full refund, the client of no purchase", async () => {
    const client = await signUpAs(app, "consumer", "Clara Client");
    const digger = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id);
    const checkout = location(await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }))!;
    await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "closed" });
    await digger.client.post(checkout, { intent: "pay" });
    await expectNotified(digger, "lead.unavailable", {
      text: new RegExp(`^The lead for "${gig.title}" is no longer available: your payment of \\$[\\d.]+ is refunded in full$`),
      link: "/browse-gigs",
      subject: `The lead for "${gig.title}" is no longer available`,
    });
    expect(await bellOf(client.id)).toEqual([]);
  });
});

describe("reference requests", () => {
  it("the request reaches the digger; the answer reaches the consumer with the profile link", async () => {
    const digger = await diggerWithProfile(app);
    const clientUser = await signUpAs(app, "consumer", "Quinn Asker");
    const bystander = await signUpAs(app, "consumer", "Other Asker");
    const [reference] = await db()
      .insert(diggerReferences)
      .values({ diggerId: digger.diggerId, referenceName: "Ann Ref", referenceEmail: `ann-${randomUUID()}@example.com` })
      .returning();
    expect((await clientUser.client.post(`/digger/${digger.diggerId}`, { referenceId: reference!.id })).status).toBe(200);
    await expectNotified(digger, "reference.requested", {
      text: "Quinn Asker asked for the contact details of your reference Ann Ref",
      link: "/reference-requests",
      subject: "New reference contact request",
    });

    const [row] = await db().select().from(referenceContactRequests).where(eq(referenceContactRequests.referenceId, reference!.id));
    expect((await digger.client.post("/reference-requests", { requestId: row!.id, decision: "decline" })).status).toBe(200);
    await expectNotified(clientUser, "reference.decided", {
      text: `${handleOf(digger)} declined your request for the contact details of Ann Ref`,
      link: `/digger/${digger.diggerId}`,
      subject: "Your reference contact request was declined",
    });
    await expectNoneOf([digger, bystander], "reference.decided");
    await expectNoneOf([clientUser, bystander], "reference.requested");
  });
});

describe("a gig you bought was closed as filled", () => {
  it("tells each digger who bought it, once, and not the client", async () => {
    const lead = await boughtLead();
    const second = await diggerWithProfile(app);
    await insertPurchase(app, lead.gig, second.diggerId);
    const close = () => lead.client.client.post("/my-gigs", { intent: "set-status", gigId: lead.gig.id, status: "closed", filled: "yes" });
    expect((await close()).status).toBe(200);
    expect((await close()).status).toBe(200);
    for (const digger of [lead.digger, second]) {
      await expectNotified(digger, "gig.filled", {
        text: `The gig "${lead.gig.title}" you bought was closed as filled`,
        link: "/my-leads",
        subject: `The gig "${lead.gig.title}" has been filled`,
      });
    }
    await expectNoneOf([lead.client], "gig.filled");
  });
});

describe("every e-mail has an HTML part", () => {
  it("sign-up confirmation, password reset and the contact form are multipart too, in the product's layout", async () => {
    const address = `html-${randomUUID()}@example.com`;
    const visitor = new SessionClient(app);
    await visitor.post("/auth", { intent: "sign-up", fullName: "Hana Html", email: address, password: "correct-horse", userType: "consumer", ageConfirmed: "on" });
    await new SessionClient(app).post("/auth?view=forgot", { intent: "forgot-password", email: address });
    await visitor.post("/contact", { name: "Hana Html", email: address, subject: "Hello", message: "How do refunds work for a lead that was posted by mistake?" });
    await jobsSettled(db());
    const ours = smtp.messages.filter((m) => m.envelope.to.includes(address) || m.parsed.replyTo?.[0]?.address === address);
    expect(ours.map((m) => m.parsed.subject)).toEqual(expect.arrayContaining([expect.stringMatching(/confirm/i), "Reset your Digs & Gigs password", expect.stringMatching(/^Contact form/)]));
    // Every message the peer received in this file: the text part and an HTML part of the layout.
    for (const message of smtp.messages) {
      expect(message.parsed.text?.trim()).toBeTruthy();
      expect(message.parsed.html).toMatch(/^<!DOCTYPE html/);
      expect(message.parsed.html).toContain("max-width:560px");
      expect(message.parsed.html).not.toMatch(/<script/i);
    }
  });

  it("/dev/mail shows the HTML part in a sandboxed frame without scripts", async () => {
    const local = await createTestApp();
    try {
      await local.mailer.send({ to: "ivy@example.test", kind: "transactional", subject: "Framed", content: [paragraph("Hello Ivy."), action("Your leads", "https://digsandgigs.local/my-leads")] });
      const page = await (await local.request("/dev/mail")).text();
      const frame = /<iframe[^>]*>/.exec(page)?.[0] ?? "";
      expect(frame).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"');
      expect(frame).toContain('title="HTML of &quot;Framed&quot;"');
      const srcdoc = decodeHtml(/srcDoc="([^"]*)"|srcdoc="([^"]*)"/i.exec(frame)?.slice(1).find(Boolean) ?? "").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
      expect(srcdoc).toContain("default-src 'none'");
      expect(srcdoc).toContain('href="https://digsandgigs.local/my-leads"');
      expect(srcdoc).toContain(">Your leads</a>");
    } finally {
      await local.close();
    }
  });
});

describe("the bell", () => {
  /**
   * `n` events, each in its own transaction, oldest first. Each a few milliseconds after the last:
   * PGlite's clock counts milliseconds, and two entries of the same millisecond are ordered by
   * their random ids (the list's tie-break), which made this test fail now and then.
   */
  async function notifyMany(user: TestUser, n: number) {
    for (let i = 1; i <= n; i++) {
      if (i > 1) await new Promise((resolve) => setTimeout(resolve, 3));
      await db().transaction((tx) => app.services.notify(tx, { userId: user.id, address: user.email, kind: "gig.filled", subjectId: randomUUID(), text: `Event number ${i}`, link: "/my-leads" }));
    }
  }
  /** The entries a page shows, in its order (the rendered list, not the page's data script). */
  const shown = (html: string) => [...html.matchAll(/<\/span>Event number (\d+)</g)].map((m) => Number(m[1]));

  it("counts unread, lists newest first 20 a page, and 'Mark all as read' clears only the owner's", async () => {
    const owner = await signUpAs(app, "consumer", "Bella Bell");
    const other = await signUpAs(app, "digger", "Otto Other");
    expect(await bellLabel(owner.client)).toBe("Notifications");
    await notifyMany(owner, 23);
    await notifyMany(other, 2);
    expect(await bellLabel(owner.client)).toBe("Notifications, 23 unread");

    const first = decodeHtml(await (await owner.client.get("/notifications")).text());
    expect(shown(first)).toEqual(Array.from({ length: 20 }, (_, i) => 23 - i));
    expect(first).toContain("23 unread");
    expect(first).not.toContain("Otto");
    const next = /href="(\/notifications\?cursor=[^"]+)"/.exec(first)?.[1];
    expect(next).toBeDefined();
    const second = decodeHtml(await (await owner.client.get(next!)).text());
    expect(shown(second)).toEqual([3, 2, 1]);
    expect(second).toContain("23 unread");
    expect(second).not.toMatch(/href="\/notifications\?cursor=/);
    // A page past the oldest (a kept link, after deletions) lists nothing and still counts.
    const past = encodeCursor(["2000-01-01T00:00:00.000000Z", randomUUID()]);
    const beyond = decodeHtml(await (await owner.client.get(`/notifications?cursor=${past}`)).text());
    expect(shown(beyond)).toEqual([]);
    expect(beyond).toContain("23 unread");

    const marked = await owner.client.post("/notifications", {});
    expect(marked.status).toBe(200);
    expect(await bellLabel(owner.client)).toBe("Notifications");
    expect(decodeHtml(await (await owner.client.get("/notifications")).text())).toContain("No unread notifications");
    expect((await bellOf(owner.id)).every((n) => n.readAt !== null)).toBe(true);
    expect(await bellLabel(other.client)).toBe("Notifications, 2 unread");
  });

  it("is for signed-in users only: a visitor is sent to sign in and sees no bell", async () => {
    const visitor = new SessionClient(app);
    const page = await visitor.get("/notifications");
    expect(page.status).toBe(302);
    expect(location(page)).toMatch(/^\/auth\?redirect=%2Fnotifications/);
    const post = await visitor.post("/notifications", {});
    expect(location(post)).toMatch(/^\/auth/);
    expect(await bellLabel(visitor)).toBeNull();
  });

  it("never writes a link off the site", async () => {
    const user = await signUpAs(app, "consumer");
    await expect(db().transaction((tx) => app.services.notify(tx, { userId: user.id, address: user.email, kind: "gig.filled", subjectId: randomUUID(), text: "x", link: "https://evil.example/" }))).rejects.toThrow();
    await expect(db().transaction((tx) => app.services.notify(tx, { userId: user.id, address: user.email, kind: "gig.filled", subjectId: randomUUID(), text: "x", link: "//evil.example/" }))).rejects.toThrow();
    expect(await bellOf(user.id)).toEqual([]);
  });

  it("an event that rolls back leaves neither the entry nor the e-mail", async () => {
    const user = await signUpAs(app, "consumer");
    await expect(
      db().transaction(async (tx) => {
        await app.services.notify(tx, { userId: user.id, address: user.email, kind: "gig.filled", subjectId: randomUUID(), text: "Never", link: "/my-leads", email: { subject: "Never sent", content: [paragraph("Never.")] } });
        throw new Error("the event failed");
      }),
    ).rejects.toThrow("the event failed");
    expect(await bellOf(user.id)).toEqual([]);
    expect(await mailsOf(user.id)).toEqual([]);
  });
});
