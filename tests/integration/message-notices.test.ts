/**
 * Notifications of new messages (issue 32; server/conversations/message-notices.ts, decision 0038
 * "Notifications"), through the real app, its job queue and its workers: a message unread 5
 * minutes e-mails its recipient (the newest text, as text; how many more; a link to the thread;
 * the one-click unsubscribe), a message read before then does not, at most one e-mail per thread
 * and recipient in 30 minutes with later messages summed up at the window's end, the E-mail
 * choice of How to reach me's New messages (/account, or the e-mail's link), no e-mail to a deleted
 * account, and one bell entry per thread with unread messages. Time is moved by making the
 * queued job due and moving the last e-mail's time back. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../server/db/client.ts";
import { messageNotices, notifications, reachPreferences, users } from "../../server/db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobsSettled, makeJobDue } from "../support/jobs.ts";
import { boughtLead, decodeHtml, mailTo } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const db = () => app.database.db;

async function send(user: { client: SessionClient }, threadId: string, body: string) {
  const response = await user.client.post(`/messages/${threadId}`, { intent: "send", body, js: "1" });
  expect(response.status).toBe(200);
  // The recipient is told by the `messages.tell` job, just after the send (decision 0078).
  await jobsSettled(db(), "messages.tell");
}

/** The recipient's `messages.notify` jobs still waiting, with the seconds until each may run. */
const waitingJobs = (userId: string) =>
  queryRows<{ wait_seconds: number }>(
    db(),
    sql`select extract(epoch from start_after - now())::float8 as wait_seconds from pgboss.job
        where name = 'messages.notify' and data->>'userId' = ${userId} and state in ('created', 'retry')`,
  );

/** Runs the recipient's waiting job now, as if its time had come. */
async function runDue(userId: string) {
  await makeJobDue(db(), "messages.notify", "userId", userId);
  await jobsSettled(db(), "messages.notify");
}

/** Moves the last e-mail about the thread back past the 30-minute window. */
const windowPassed = (threadId: string, userId: string) =>
  db()
    .update(messageNotices)
    .set({ emailedAt: sql`now() - interval '31 minutes'` })
    .where(and(eq(messageNotices.threadId, threadId), eq(messageNotices.userId, userId)));

/** A mail client's RFC 8058 one-click POST. */
const oneClick = (visitor: SessionClient, path: string) =>
  visitor.send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl }, body: "List-Unsubscribe=One-Click" });

const messageMail = async (address: string) => (await mailTo(app, address)).filter((m) => m.subject.startsWith("New message from"));
const bellOf = (userId: string) => db().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, "message.received")));

describe("a message not read within 5 minutes", () => {
  it("e-mails its recipient once: the subject, the text as text, a link to the thread, the one-click unsubscribe; the bell has the thread", async () => {
    const lead = await boughtLead(app);
    await send(lead.client, lead.threadId, "Can you come on <b>Tuesday</b> & bring the ladder?");
    const [job, ...others] = await waitingJobs(lead.digger.id);
    expect(others).toEqual([]);
    expect(job!.wait_seconds).toBeGreaterThan(290);
    expect(job!.wait_seconds).toBeLessThanOrEqual(300);
    // Nothing before its time.
    expect(await messageMail(lead.digger.email)).toEqual([]);

    await runDue(lead.digger.id);
    const [mail, ...more] = await messageMail(lead.digger.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`New message from Clara C. about "${lead.gig.title}"`);
    expect(mail!.textBody).toContain("Can you come on <b>Tuesday</b> & bring the ladder?");
    expect(mail!.htmlBody).not.toContain("<b>Tuesday</b>");
    expect(mail!.htmlBody).toContain("&lt;b&gt;Tuesday&lt;/b&gt;");
    expect(mail!.textBody).toContain(`${app.config.publicUrl}/messages/${lead.threadId}`);
    expect(mail!.textBody).not.toContain("more message");
    expect(mail!.listUnsubscribeUrl).toMatch(new RegExp(`^${app.config.publicUrl}/unsubscribe\\?token=.+&list=messages$`));
    expect(mail!.textBody).toContain(mail!.listUnsubscribeUrl!);
    expect(await bellOf(lead.digger.id)).toMatchObject([{ text: `New message from Clara C. about "${lead.gig.title}"`, link: `/messages/${lead.threadId}` }]);
    // The sender is told nothing of their own message.
    expect(await messageMail(lead.client.email)).toEqual([]);
    expect(await waitingJobs(lead.digger.id)).toEqual([]);
  });

  it("is not e-mailed, nor put in the bell, when the recipient read it before", async () => {
    const lead = await boughtLead(app);
    await send(lead.digger, lead.threadId, "Here is my quote.");
    expect(await waitingJobs(lead.client.id)).toHaveLength(1);
    expect((await lead.client.client.get(`/messages/${lead.threadId}`)).status).toBe(200);
    await runDue(lead.client.id);
    expect(await messageMail(lead.client.email)).toEqual([]);
    expect(await bellOf(lead.client.id)).toEqual([]);
  });

  it("is not e-mailed to an account deleted meanwhile", async () => {
    const lead = await boughtLead(app);
    await send(lead.client, lead.threadId, "Are you still there?");
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, lead.digger.id));
    await runDue(lead.digger.id);
    expect(await messageMail(lead.digger.email)).toEqual([]);
  });
});

describe("at most one e-mail per thread and recipient in 30 minutes", () => {
  it("sends one for three messages, then one more at the window's end summing up the rest; the bell keeps one entry for the thread", async () => {
    const lead = await boughtLead(app);
    await send(lead.client, lead.threadId, "First message");
    await runDue(lead.digger.id);
    expect(await messageMail(lead.digger.email)).toHaveLength(1);

    await send(lead.client, lead.threadId, "Second message");
    expect(await waitingJobs(lead.digger.id)).toHaveLength(1);
    await runDue(lead.digger.id);
    // Within the window: nothing now, one job at its end.
    expect(await messageMail(lead.digger.email)).toHaveLength(1);
    const [later, ...others] = await waitingJobs(lead.digger.id);
    expect(others).toEqual([]);
    expect(later!.wait_seconds).toBeGreaterThan(25 * 60);
    expect(later!.wait_seconds).toBeLessThanOrEqual(30 * 60);

    await send(lead.client, lead.threadId, "Third message");
    // Still the one job: the third message is summed up in it.
    expect(await waitingJobs(lead.digger.id)).toHaveLength(1);

    await windowPassed(lead.threadId, lead.digger.id);
    await runDue(lead.digger.id);
    const mails = await messageMail(lead.digger.email);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.textBody).toContain("Third message");
    expect(mails[0]!.textBody).not.toContain("Second message");
    expect(mails[0]!.textBody).toContain("and 2 more messages");
    expect(await bellOf(lead.digger.id)).toHaveLength(1);

    // Read, then a new message: the thread is in the bell again.
    expect((await lead.digger.client.get(`/messages/${lead.threadId}`)).status).toBe(200);
    await send(lead.client, lead.threadId, "Fourth message");
    await windowPassed(lead.threadId, lead.digger.id);
    await runDue(lead.digger.id);
    expect(await messageMail(lead.digger.email)).toHaveLength(3);
    expect(await bellOf(lead.digger.id)).toHaveLength(2);
  });
});

/** The E-mail choice of How to reach me's New messages (no row: on), and the promotional switch. */
async function messageChoice(userId: string) {
  const [row] = await db()
    .select({ messageEmail: reachPreferences.email })
    .from(reachPreferences)
    .where(and(eq(reachPreferences.userId, userId), eq(reachPreferences.group, "messages")));
  const [user] = await db().select({ promotionalEmail: users.promotionalEmail }).from(users).where(eq(users.id, userId));
  return { messageEmail: row?.messageEmail ?? true, promotionalEmail: user!.promotionalEmail };
}

describe("How to reach me: E-mail for New messages (was 'E-mail me about new messages')", () => {
  it("is on by default; turned off on /account, no e-mail goes (the bell still shows the thread)", async () => {
    const lead = await boughtLead(app);
    const page = decodeHtml(await (await lead.digger.client.get("/account")).text());
    expect(page).toContain("How to reach me");
    expect(page).toMatch(/aria-label="E-mail: New messages"[^>]*aria-checked="true"|aria-checked="true"[^>]*aria-label="E-mail: New messages"/);

    const off = await lead.digger.client.post("/account", { intent: "reach", "email.quotes": "on", "email.lead-alerts": "on" });
    expect(off.status).toBe(200);
    expect(decodeHtml(await off.text())).toContain("Your notification choices are saved.");
    expect(await messageChoice(lead.digger.id)).toEqual({ messageEmail: false, promotionalEmail: false });

    await send(lead.client, lead.threadId, "Do you read e-mail?");
    await runDue(lead.digger.id);
    expect(await messageMail(lead.digger.email)).toEqual([]);
    expect(await bellOf(lead.digger.id)).toHaveLength(1);

    const on = await lead.digger.client.post("/account", { intent: "reach", "email.messages": "on" });
    expect(decodeHtml(await on.text())).toContain("Your notification choices are saved.");
    expect((await messageChoice(lead.digger.id)).messageEmail).toBe(true);
  });

  it("is turned off by the e-mail's one-click unsubscribe, without signing in; the link turns nothing else off", async () => {
    const lead = await boughtLead(app);
    await send(lead.client, lead.threadId, "Unsubscribe me please");
    await runDue(lead.digger.id);
    const [mail] = await messageMail(lead.digger.email);
    const url = new URL(mail!.listUnsubscribeUrl!);
    const visitor = new SessionClient(app);

    // The same token does not pass for the promotional list.
    const forged = await oneClick(visitor, `${url.pathname}?token=${encodeURIComponent(url.searchParams.get("token")!)}`);
    expect(forged.status).toBe(400);

    const page = await visitor.get(`${url.pathname}${url.search}`);
    expect(decodeHtml(await page.text())).toContain("E-mail about new messages from Digs & Gigs");
    const done = await oneClick(visitor, `${url.pathname}${url.search}`);
    expect(done.status).toBe(200);
    expect(decodeHtml(await done.text())).toContain("E-mail about new messages is off.");
    expect(await messageChoice(lead.digger.id)).toEqual({ messageEmail: false, promotionalEmail: false });

    await send(lead.client, lead.threadId, "And another one");
    await windowPassed(lead.threadId, lead.digger.id);
    await runDue(lead.digger.id);
    expect(await messageMail(lead.digger.email)).toHaveLength(1);
  });
});
