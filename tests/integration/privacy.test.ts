/**
 * Privacy and account self-service (issue 8), through the real app: Download my data holds
 * the user's rows and nobody else's; promotional e-mail respects the preference and carries
 * a signed one-click unsubscribe link that works signed out and refuses a tampered token;
 * deleting the account signs out everywhere and hides the profile and gigs at once.
 * The purge itself is in purge.test.ts.
 */
import { randomUUID } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  accounts,
  diggerProfiles,
  diggerReferences,
  emails,
  hires,
  leadIssues,
  leadAlertCategories,
  leadAlertSettings,
  gigs,
  leadPurchases,
  phoneCodes,
  phoneVerifications,
  referenceContactRequests,
  reviews,
  sessions,
  smsOutbox,
  users,
  verifications,
} from "../../server/db/schema.ts";
import { DELETE_ACCOUNT_MESSAGES } from "../../core/privacy-schemas.ts";
import { UNSUBSCRIBE_MESSAGES } from "../../server/privacy/unsubscribe-link.ts";
import { sendPhoneCode } from "../../server/phones/send-code.ts";
import { parsePhone } from "../../server/phones/parse-phone.ts";
import { signUnsubscribeToken } from "../../server/mail/unsubscribe-token.ts";
import type { UserDataExport } from "../../server/privacy/export.ts";
import { addDiggerProfile, signUpAs, TEST_PASSWORD, type TestUser } from "../support/accounts.ts";
import { validGigForm } from "../support/forms.ts";
import { paragraph } from "../../server/mail/content.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, topLevelCategoryId } from "../support/leads.ts";
import { jobOf, jobsSettled, makeJobDue } from "../support/jobs.ts";
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
beforeEach(() => {
  smtp.rejectWith = null;
});

const db = () => app.database.db;
const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0];
/** Promotional e-mail is opt-in (issue 47, migration 0051): the user ticks the box first. */
async function optedIn<T extends { id: string }>(user: T): Promise<T> {
  await db().update(users).set({ promotionalEmail: true }).where(eq(users.id, user.id));
  return user;
}

/** A promotional e-mail to the user at their address (the product has no campaign sender: the mailer's rules are what is tested). */
const promote = (user: TestUser, subject = `News ${randomUUID().slice(0, 8)}`) =>
  app.mailer.send({ to: user.email, userId: user.id, kind: "promotional", subject, content: [paragraph("Our best offers this month.")] });
/** The messages to that address, once the job queue has delivered what was sent so far. */
const receivedBy = async (address: string) => {
  await jobsSettled(app.database.db);
  return smtp.messages.filter((m) => m.envelope.to.includes(address));
};

/** Every property name anywhere in a JSON value. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : value && typeof value === "object"
      ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
      : [];

async function download(client: SessionClient): Promise<UserDataExport> {
  const response = await client.get("/account/data");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="digs-and-gigs-data-\d{4}-\d{2}-\d{2}\.json"$/);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  return (await response.json()) as UserDataExport;
}

describe("Download my data", () => {
  it("needs a signed-in user", async () => {
    const response = await new SessionClient(app).get("/account/data");
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/auth?redirect=%2Faccount%2Fdata");
  });

  it("holds the user's own rows and nobody else's, without secrets", async () => {
    const client = await optedIn(await signUpAs(app, "consumer", "Clara Client"));
    const other = await optedIn(await signUpAs(app, "consumer", "Oscar Other"));
    const digger = await diggerWithProfile(app);
    const [reference] = await db()
      .insert(diggerReferences)
      .values({ diggerId: digger.diggerId, referenceName: "Rita Reference", referenceEmail: `rita-${randomUUID()}@example.com` })
      .returning();
    const clientGig = await insertGig(app, client.id);
    const otherGig = await insertGig(app, other.id);
    const purchase = await insertPurchase(app, clientGig, digger.diggerId);
    await insertPurchase(app, otherGig, digger.diggerId);
    await db().insert(leadIssues).values({
      leadPurchaseId: purchase.id,
      diggerId: digger.diggerId,
      issueType: "already_filled",
      description: "They found someone else.",
      refundPercentage: 50,
    });
    for (const clientUser of [client, other]) {
      await db().insert(referenceContactRequests).values({ referenceId: reference!.id, clientId: clientUser.id, diggerId: digger.diggerId });
    }
    await db().insert(hires).values({ gigId: clientGig.id, diggerId: digger.diggerId });
    await db().insert(reviews).values({ gigId: clientGig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, rating: 4, body: "Good work on the deck, thank you." });
    await promote(client, "Spring offers for Clara");
    await promote(other, "Spring offers for Oscar");

    const mine = await download(client.client);
    expect(mine.account).toMatchObject({ id: client.id, email: client.email, fullName: "Clara Client", userType: "consumer", promotionalEmail: true });
    expect(mine.account.signInMethods).toEqual([expect.objectContaining({ provider: "credential" })]);
    expect(mine.diggerProfile).toBeNull();
    expect(mine.gigs.map((g) => g.id)).toEqual([clientGig.id]);
    expect(mine.gigs[0]).toMatchObject({ title: clientGig.title, contactPreferences: clientGig.contactPreferences, contactPhone: clientGig.contactPhone, purchaseCount: 0 });
    expect(mine.purchases).toEqual([]);
    expect(mine.issues.reported).toEqual([]);
    expect(mine.issues.onMyGigs).toEqual([expect.objectContaining({ gigId: clientGig.id, issueType: "already_filled", refundPercentage: 50 })]);
    expect(mine.referenceContactRequests.made).toEqual([expect.objectContaining({ referenceName: "Rita Reference", status: "pending" })]);
    expect(mine.referenceContactRequests.received).toEqual([]);
    expect(mine.reviews.written).toEqual([expect.objectContaining({ gigId: clientGig.id, rating: 4, body: "Good work on the deck, thank you." })]);
    expect(mine.reviews.received).toEqual([]);
    expect(mine.hires.made).toEqual([expect.objectContaining({ gigId: clientGig.id })]);
    expect(mine.emails.map((e) => e.subject)).toEqual(["Spring offers for Clara"]);
    expect(mine.emails[0]).toMatchObject({ to: client.email, kind: "promotional" });

    const text = JSON.stringify(mine);
    for (const foreign of [other.email, other.id, "Oscar", otherGig.title, otherGig.contactPreferences!, otherGig.contactPhone!, digger.email, digger.businessName, reference!.referenceEmail]) {
      expect(text).not.toContain(foreign);
    }
    expect(keysOf(mine).filter((key) => /password|session|token|secret|backup/i.test(key))).toEqual([]);
    const [credential] = await db().select({ hash: accounts.password }).from(accounts).where(eq(accounts.userId, client.id));
    expect(text).not.toContain(credential!.hash!);

    const theirs = await download(digger.client);
    expect(theirs.account).toMatchObject({ id: digger.id, userType: "digger" });
    expect(theirs.diggerProfile).toMatchObject({ id: digger.diggerId, businessName: digger.businessName, phone: "(555) 010-9999" });
    expect(theirs.diggerProfile?.references).toEqual([expect.objectContaining({ name: "Rita Reference", email: reference!.referenceEmail })]);
    expect(theirs.purchases.map((p) => p.gigTitle).sort()).toEqual([clientGig.title, otherGig.title].sort());
    expect(theirs.issues.reported).toEqual([expect.objectContaining({ leadPurchaseId: purchase.id, description: "They found someone else." })]);
    expect(theirs.gigs).toEqual([]);
    expect(theirs.referenceContactRequests.received.map((r) => r.requestedBy).sort()).toEqual(["Clara Client", "Oscar Other"]);
    expect(theirs.reviews.received).toEqual([expect.objectContaining({ rating: 4, reviewer: "Clara C." })]);
    expect(theirs.hires.received).toEqual([expect.objectContaining({ gigId: clientGig.id })]);
    // What a digger's own pages show of the clients (names on /reference-requests), never their addresses.
    const theirText = JSON.stringify(theirs);
    for (const foreign of [client.email, other.email, client.id, other.id, clientGig.contactPreferences!]) {
      expect(theirText).not.toContain(foreign);
    }
  });
});

/** A real code sent to `phone` for `user`'s account (the outbox is the text provider): the row holds its HMAC and the outbox's id. */
async function sendCode(user: TestUser, phone: string) {
  const parsed = parsePhone(phone, "US")!;
  await sendPhoneCode(app.services, app.services.logger, { userId: user.id, emailVerified: true, phone: parsed, target: { forAccount: true, gigId: null }, clientIp: "203.0.113.9" });
  return (await db().select().from(phoneCodes).where(eq(phoneCodes.userId, user.id)))[0]!;
}

describe("Download my data: verified phones (issue 49)", () => {
  it("holds the account's number, its verified numbers with when, and the waiting code's number and times; never a code, its hash or the provider's id", async () => {
    const client = await signUpAs(app, "consumer", "Vera Verified");
    const other = await signUpAs(app, "consumer", "Sam Shared");
    await db().update(users).set({ phone: "+13035550142" }).where(eq(users.id, client.id));
    await db().insert(phoneVerifications).values([
      { userId: client.id, phone: "+13035550142", verifiedAt: new Date("2026-11-01T10:00:00Z") },
      { userId: client.id, phone: "+15125550123", verifiedAt: new Date("2026-11-02T10:00:00Z") },
      // The same number verified by another account (people share phones): never in this export.
      { userId: other.id, phone: "+15125550123", verifiedAt: new Date("2026-10-05T10:00:00Z") },
      { userId: other.id, phone: "+12015550123", verifiedAt: new Date("2026-10-06T10:00:00Z") },
    ]);
    const gig = await insertGig(app, client.id, { contactPhone: "+15125550123" });
    const code = await sendCode(client, "+1 201 555 0188");
    expect(code.providerMessageId).toBeTruthy();
    const [text] = await queryOutbox("+12015550188");

    const mine = await download(client.client);
    expect(mine.account.phone).toBe("+13035550142");
    expect(mine.account.verifiedPhones).toEqual([
      { phone: "+13035550142", verifiedAt: "2026-11-01T10:00:00.000Z" },
      { phone: "+15125550123", verifiedAt: "2026-11-02T10:00:00.000Z" },
    ]);
    expect(mine.account.phoneCodeWaiting).toEqual({ phone: "+12015550188", sentAt: code.sentAt.toISOString(), expiresAt: code.expiresAt.toISOString() });
    expect(mine.gigs.find((g) => g.id === gig.id)).toMatchObject({ contactPhone: "+15125550123", phoneVerifiedAt: "2026-11-02T10:00:00.000Z" });

    const exported = JSON.stringify(mine);
    const sentCode = /^(\d{6}) is your Digs & Gigs code/.exec(text!)![1]!;
    for (const secret of [code.codeHash, code.providerMessageId!, sentCode, "+12015550123", "2026-10-05T10:00:00"]) expect(exported).not.toContain(secret);
    expect(keysOf(mine).filter((key) => /hash|message_?id|^code$/i.test(key))).toEqual([]);
  });
});

/** The bodies of the outbox's texts to `phone`, newest first. */
async function queryOutbox(phone: string): Promise<string[]> {
  return (await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone)).orderBy(desc(smsOutbox.createdAt))).map((row) => row.body);
}

describe("Download my data and the links e-mailed to the user", () => {
  it("holds every e-mail without the tokens of its one-time and signed links (reset, confirmation, unsubscribe)", async () => {
    // A digger signed up through the form (the confirmation e-mail), with lead alerts on.
    const client = new SessionClient(app);
    const address = `exported-${randomUUID()}@example.com`;
    expect((await client.post("/auth", { intent: "sign-up", fullName: "Erin Export", email: address, password: TEST_PASSWORD, userType: "digger", ageConfirmed: "on" })).status).toBe(302);
    const [user] = await db().select().from(users).where(eq(users.email, address));
    const diggerId = await addDiggerProfile(app, user!);
    const categoryId = await topLevelCategoryId(app);
    await db().insert(leadAlertSettings).values({ diggerId });
    await db().insert(leadAlertCategories).values({ diggerId, categoryId });
    // A new lead alert (signed unsubscribe link), a promotional e-mail (another), and a password reset.
    const poster = await signUpAs(app, "consumer", "Paula Poster");
    expect((await poster.client.post("/post-gig", validGigForm(categoryId))).status).toBe(302);
    await promote({ ...(await optedIn(user!)), client, fullName: user!.name });
    expect((await new SessionClient(app).post("/auth?view=forgot", { intent: "forgot-password", email: address })).status).toBe(200);
    // The lead alert goes through the fan-out and its batch before it is an e-mail.
    await jobsSettled(db(), "alerts.gig");
    await jobsSettled(db(), "alerts.deliver");
    await jobsSettled(db());

    const sent = await db().select().from(emails).where(eq(emails.userId, user!.id));
    expect(sent.map((e) => e.subject).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/^Confirm your e-mail/), expect.stringMatching(/^New lead: /), "Reset your Digs & Gigs password"]));
    // Every token the app issued to this user: the reset token (verification table), the
    // confirmation token, both unsubscribe signatures, and any query value of any link it was sent.
    const reset = (await db().select().from(verifications).where(eq(verifications.value, user!.id))).find((v) => v.identifier.startsWith("reset-password:"));
    const tokens = [
      reset!.identifier.slice("reset-password:".length),
      ...(["promotional", "lead-alerts"] as const).map((list) => signUnsubscribeToken(app.config.authSecret, user!.id, address, list).split(".")[1]!),
      ...sent.flatMap((e) => [...e.textBody.matchAll(/https?:\/\/\S+/g)].flatMap((m) => [...new URL(m[0]).searchParams.values()])).filter((value) => value.length >= 16),
    ];
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    for (const token of tokens) expect(sent.map((e) => e.textBody).join("\n")).toContain(encodeURIComponent(token).slice(0, 16));

    const exported = await download(client);
    expect(exported.emails.map((e) => e.subject).sort()).toEqual(sent.map((e) => e.subject).sort());
    const text = JSON.stringify(exported);
    for (const token of tokens) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(encodeURIComponent(token));
    }
    // The e-mails keep their words and where their links go, up to the path.
    const resetMail = exported.emails.find((e) => e.subject === "Reset your Digs & Gigs password")!;
    expect(resetMail.text).toContain(`${app.config.publicUrl}/reset-password[…]`);
    expect(resetMail.text).toContain("The link works once.");
  });
});

describe("E-mail preferences", () => {
  it("puts a signed one-click unsubscribe link and the RFC 8058 headers on promotional e-mail", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    const id = await promote(user, "Tips for your next project");
    expect(id).toEqual(expect.any(String));

    const [message] = await receivedBy(user.email);
    const headers = new Map(message!.parsed.headers.map((h) => [h.key, h.value]));
    const link = /^<(.+)>$/.exec(headers.get("list-unsubscribe") ?? "")?.[1];
    expect(link).toMatch(new RegExp(`^${app.config.publicUrl}/unsubscribe\\?token=`));
    expect(headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(message!.parsed.text).toContain(link);
    expect(message!.parsed.html).toContain(`href="${link}"`);

    const [row] = await db().select().from(emails).where(eq(emails.id, id!));
    expect(row).toMatchObject({ kind: "promotional", status: "sent", listUnsubscribeUrl: link, userId: user.id });
  });

  it("never adds them to transactional e-mail", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    await app.mailer.send({ to: user.email, userId: user.id, kind: "transactional", subject: "Your receipt", content: [paragraph("Thanks.")] });
    const [message] = await receivedBy(user.email);
    expect(message!.parsed.headers.some((h) => h.key.startsWith("list-unsubscribe"))).toBe(false);
    expect(message!.parsed.text).not.toContain("/unsubscribe");
  });

  it("unsubscribes with the link while signed out: the page asks once, the button does it", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    await promote(user);
    const link = new URL(/^<(.+)>$/.exec((await receivedBy(user.email))[0]!.parsed.headers.find((h) => h.key === "list-unsubscribe")!.value)![1]!);
    const visitor = new SessionClient(app);

    const page = await visitor.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    const html = decodeHtml(await page.text());
    expect(html).toContain(">Unsubscribe</button>");
    expect((await userRow(user.id))!.promotionalEmail).toBe(true);

    const response = await visitor.post(link.pathname + link.search, { token: link.searchParams.get("token")! });
    expect(response.status).toBe(200);
    expect(decodeHtml(await response.text())).toContain(UNSUBSCRIBE_MESSAGES.done);
    expect((await userRow(user.id))!.promotionalEmail).toBe(false);

    const before = (await receivedBy(user.email)).length;
    expect(await promote(user)).toBeNull();
    expect(await receivedBy(user.email)).toHaveLength(before);
    expect(await db().select().from(emails).where(eq(emails.userId, user.id))).toHaveLength(1);

    // Transactional e-mail still arrives.
    await app.mailer.send({ to: user.email, userId: user.id, kind: "transactional", subject: "Your receipt", content: [paragraph("Thanks.")] });
    expect(await receivedBy(user.email)).toHaveLength(before + 1);
  });

  it("answers a mail client's one-click POST (RFC 8058) without cookies or Origin", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    await promote(user);
    const link = /^<(.+)>$/.exec((await receivedBy(user.email))[0]!.parsed.headers.find((h) => h.key === "list-unsubscribe")!.value)![1]!;
    const response = await app.request(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    expect((await userRow(user.id))!.promotionalEmail).toBe(false);
  });

  it("refuses a tampered token, a token moved to another user, and no token", async () => {
    const alice = await optedIn(await signUpAs(app, "consumer"));
    const bob = await optedIn(await signUpAs(app, "consumer"));
    await promote(alice);
    const token = new URL(/^<(.+)>$/.exec((await receivedBy(alice.email))[0]!.parsed.headers.find((h) => h.key === "list-unsubscribe")!.value)![1]!).searchParams.get("token")!;
    const signature = token.slice(token.lastIndexOf(".") + 1);
    const flipped = `${alice.id}.${signature.slice(0, 5)}${signature[5] === "A" ? "B" : "A"}${signature.slice(6)}`;
    const moved = `${bob.id}.${signature}`;

    for (const bad of [flipped, moved, `${alice.id}.`, "nonsense", ""]) {
      const visitor = new SessionClient(app);
      const page = await visitor.get(`/unsubscribe?token=${encodeURIComponent(bad)}`);
      expect(page.status).toBe(200);
      const html = decodeHtml(await page.text());
      expect(html).toContain(UNSUBSCRIBE_MESSAGES.invalid);
      expect(html).not.toContain(">Unsubscribe</button>");
      const response = await visitor.post(`/unsubscribe?token=${encodeURIComponent(bad)}`, { token: bad });
      expect(response.status).toBe(400);
      expect(decodeHtml(await response.text())).toContain(UNSUBSCRIBE_MESSAGES.invalid);
    }
    expect((await userRow(alice.id))!.promotionalEmail).toBe(true);
    expect((await userRow(bob.id))!.promotionalEmail).toBe(true);
  });

  it("stops working when the account's address changes", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    await promote(user);
    const link = /^<(.+)>$/.exec((await receivedBy(user.email))[0]!.parsed.headers.find((h) => h.key === "list-unsubscribe")!.value)![1]!;
    await db().update(users).set({ email: `changed-${randomUUID()}@example.com` }).where(eq(users.id, user.id));
    expect((await app.request(link, { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) })).status).toBe(400);
    expect((await userRow(user.id))!.promotionalEmail).toBe(true);
  });

  it("is off for a new account (opt-in, issue 47), switched on and off again on the account page", async () => {
    const user = await signUpAs(app, "consumer");
    const page = decodeHtml(await (await user.client.get("/account")).text());
    expect(page).toContain("E-mail preferences");
    expect(page).toMatch(/id="promotional-email"[^>]*aria-checked="false"|aria-checked="false"[^>]*id="promotional-email"/);
    expect((await userRow(user.id))!.promotionalEmail).toBe(false);
    expect(await promote(user)).toBeNull();

    let response = await user.client.post("/account", { intent: "email-preferences", promotionalEmail: "on" });
    expect(response.status).toBe(200);
    expect((await userRow(user.id))!.promotionalEmail).toBe(true);
    expect(await promote(user)).toEqual(expect.any(String));
    expect(decodeHtml(await (await user.client.get("/account")).text())).toMatch(
      /id="promotional-email"[^>]*aria-checked="true"|aria-checked="true"[^>]*id="promotional-email"/,
    );

    response = await user.client.post("/account", { intent: "email-preferences" });
    expect(response.status).toBe(200);
    expect((await userRow(user.id))!.promotionalEmail).toBe(false);
    expect(await promote(user)).toBeNull();
  });

  it("refuses promotional e-mail to an address that is not the user's, or with no user", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    expect(await app.mailer.send({ to: "someone-else@example.com", userId: user.id, kind: "promotional", subject: "Hi", content: [paragraph("Hi")] })).toBeNull();
    expect(await app.mailer.send({ to: user.email, kind: "promotional", subject: "Hi", content: [paragraph("Hi")] })).toBeNull();
    expect(await db().select().from(emails).where(eq(emails.userId, user.id))).toHaveLength(0);
  });

  it("drops a promotional e-mail still queued when the user opts out before it goes", async () => {
    const user = await optedIn(await signUpAs(app, "consumer"));
    smtp.rejectWith = { code: 451, message: "Try again later" };
    const id = await promote(user);
    expect(id).toEqual(expect.any(String));
    // Refused once by the mail server: the job waits for its retry.
    await vi.waitFor(async () => expect((await jobOf(db(), "email.deliver", "emailId", id!))?.state).toBe("retry"), { timeout: 10_000 });
    smtp.rejectWith = null;
    await user.client.post("/account", { intent: "email-preferences" });
    await makeJobDue(db(), "email.deliver", "emailId", id!);
    await vi.waitFor(async () => expect((await jobOf(db(), "email.deliver", "emailId", id!))?.state).toBe("completed"), { timeout: 10_000 });
    expect(await receivedBy(user.email)).toHaveLength(0);
    expect(await db().select().from(emails).where(eq(emails.id, id!))).toHaveLength(0);
  });
});

describe("Delete my account", () => {
  it("needs the account's own e-mail address typed to confirm", async () => {
    const user = await signUpAs(app, "consumer");
    for (const typed of ["", "someone@example.com", user.email.replace("@", "")]) {
      const response = await user.client.post("/account", { intent: "delete-account", confirmEmail: typed });
      expect(response.status).toBe(400);
      expect(decodeHtml(await response.text())).toContain(DELETE_ACCOUNT_MESSAGES.confirm);
    }
    expect((await userRow(user.id))!.deletedAt).toBeNull();
    expect((await user.client.get("/account")).status).toBe(200);
  });

  it("signs the user out everywhere at once and keeps them out", async () => {
    const user = await signUpAs(app, "consumer");
    const laptop = new SessionClient(app);
    await laptop.post("/auth", { intent: "sign-in", email: user.email, password: TEST_PASSWORD });
    expect((await laptop.get("/account")).status).toBe(200);
    const stolenCookie = laptop.cookieHeader();

    const response = await user.client.post("/account", { intent: "delete-account", confirmEmail: ` ${user.email.toUpperCase()} ` });
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/");
    expect([...user.client.cookies.keys()].some((k) => k.includes("session_token"))).toBe(false);
    expect(decodeHtml(await (await user.client.get("/")).text())).toContain(DELETE_ACCOUNT_MESSAGES.deleted);

    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    for (const cookie of [stolenCookie, laptop.cookieHeader()]) {
      const replay = await app.request("/account", { headers: { cookie }, redirect: "manual" });
      expect(replay.status).toBe(302);
      expect(location(replay)).toBe("/auth?redirect=%2Faccount");
    }

    const again = new SessionClient(app);
    const signIn = await again.post("/auth", { intent: "sign-in", email: user.email, password: TEST_PASSWORD });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expect(decodeHtml(await signIn.text())).toContain("This account has been deleted.");
    expect([...again.cookies.keys()].some((k) => k.includes("session_token"))).toBe(false);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it("forgets the account's phones at once (issue 49): its number, its verified numbers and the waiting code; a purchase keeps the tick it was bought with", async () => {
    const user = await signUpAs(app, "consumer");
    const sharer = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    await db().update(users).set({ phone: "+13035550177" }).where(eq(users.id, user.id));
    await db().insert(phoneVerifications).values([
      { userId: user.id, phone: "+13035550177" },
      { userId: sharer.id, phone: "+13035550177" },
    ]);
    const gig = await insertGig(app, user.id, { contactPhone: "+13035550177" });
    const purchase = await insertPurchase(app, gig, digger.diggerId);
    expect(purchase.phoneVerifiedAt).toBeInstanceOf(Date);
    await sendCode(user, "+1 303 555 0178");

    const response = await user.client.post("/account", { intent: "delete-account", confirmEmail: user.email });
    expect(response.status).toBe(302);
    expect((await userRow(user.id))!.phone).toBeNull();
    expect(await db().select().from(phoneVerifications).where(eq(phoneVerifications.userId, user.id))).toEqual([]);
    expect(await db().select().from(phoneCodes).where(eq(phoneCodes.userId, user.id))).toEqual([]);
    // The gig loses its tick (trigger); the purchase's record of what was bought stays.
    expect((await db().select().from(gigs).where(eq(gigs.id, gig.id)))[0]!.phoneVerifiedAt).toBeNull();
    expect((await db().select().from(leadPurchases).where(eq(leadPurchases.id, purchase.id)))[0]!.phoneVerifiedAt).toEqual(purchase.phoneVerifiedAt);
    // Another account that verified the same number keeps its own verification.
    expect(await db().select().from(phoneVerifications).where(eq(phoneVerifications.userId, sharer.id))).toHaveLength(1);
  });

  it("hides the client's gigs at once: browse, landing, sitemap and the gig page", async () => {
    const user = await signUpAs(app, "consumer");
    const open = await insertGig(app, user.id, { title: `Open gig to vanish ${randomUUID().slice(0, 8)}` });
    const closed = await insertGig(app, user.id, { title: `Closed gig to vanish ${randomUUID().slice(0, 8)}`, status: "closed" });
    const search = `/browse-gigs?q=${encodeURIComponent(open.title)}`;
    const link = `href="/gig/${open.id}"`;
    expect(await (await app.request(search)).text()).toContain(link);
    expect((await app.request(`/gig/${open.id}`)).status).toBe(200);
    expect((await app.request(`/gig/${closed.id}`)).status).toBe(200);

    await user.client.post("/account", { intent: "delete-account", confirmEmail: user.email });

    expect(await (await app.request(search)).text()).not.toContain(link);
    expect(decodeHtml(await (await app.request("/")).text())).not.toContain(open.title);
    expect(await (await app.request("/sitemap.xml")).text()).not.toContain(open.id);
    for (const gig of [open, closed]) {
      const page = await app.request(`/gig/${gig.id}`, { redirect: "manual" });
      expect(page.status).toBe(302);
      expect(location(page)).toBe("/browse-gigs");
    }
  });

  it("hides the digger's profile at once: browse, landing, sitemap, profile page and reference requests", async () => {
    const digger = await diggerWithProfile(app);
    await db().update(diggerProfiles).set({ averageRating: 5, totalRatings: 100_000 }).where(eq(diggerProfiles.id, digger.diggerId));
    const [profile] = await db().select().from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId));
    const [reference] = await db()
      .insert(diggerReferences)
      .values({ diggerId: digger.diggerId, referenceName: "Ray Reference", referenceEmail: "ray@example.com" })
      .returning();
    const browse = `/browse-diggers?q=${profile!.handle}`;
    const link = `href="/digger/${digger.diggerId}"`;
    expect(await (await app.request(browse)).text()).toContain(link);
    expect(await (await app.request("/")).text()).toContain(link);
    expect(await (await app.request("/sitemap.xml")).text()).toContain(digger.diggerId);

    await digger.client.post("/account", { intent: "delete-account", confirmEmail: digger.email });

    expect(await (await app.request(browse)).text()).not.toContain(link);
    expect(await (await app.request("/")).text()).not.toContain(link);
    expect(await (await app.request("/sitemap.xml")).text()).not.toContain(digger.diggerId);
    const page = await app.request(`/digger/${digger.diggerId}`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(location(page)).toBe("/browse-diggers");

    const clientUser = await signUpAs(app, "consumer");
    const request = await clientUser.client.post(`/digger/${digger.diggerId}`, { referenceId: reference!.id });
    // The action refuses it; the page it would render is gone, so the answer is the redirect.
    expect(location(request)).toBe("/browse-diggers");
    expect(await db().select().from(referenceContactRequests).where(eq(referenceContactRequests.referenceId, reference!.id))).toHaveLength(0);
    expect(await mailTo(app, digger.email)).toHaveLength(0);
  });

  it("sends no promotional e-mail to a deleted account", async () => {
    const user = await signUpAs(app, "consumer");
    await user.client.post("/account", { intent: "delete-account", confirmEmail: user.email });
    expect(await promote(user)).toBeNull();
  });
});
