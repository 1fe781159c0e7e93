/**
 * Conversations (issue 32), through the real app on a real database: one thread per completed
 * purchase (made in the purchase's transaction, also for concurrent completions), who may open
 * it and send to it (both parties; nobody else: another digger of the same gig, a stranger, an
 * operator with or without a report get the 404 page; a visitor is sent to sign in), messages as
 * text with links, the inbox and its pages, unread counts and 'Read', the sending limits,
 * Block / Unblock, Report and the console's Hide / Keep, and the privacy rights (export, purge).
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_TEXTS, emptyThreadForDigger, youBlockedText, blockedByText } from "../../core/messages.ts";
import { messageReports, messages, operatorActions, threads, users } from "../../server/db/schema.ts";
import { completeCheckout } from "../../server/leads/fulfilment.ts";
import { purgeDeletedAccounts } from "../../server/privacy/purge.ts";
import { signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpOperator(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const text = async (response: Response) => decodeHtml(await response.text());
const handleOf = (user: { id: string }) => `d_${user.id.replace(/[^a-z0-9]/gi, "").slice(0, 20).toLowerCase()}`;

const send = (user: { client: SessionClient }, threadId: string, body: string, js = true) =>
  user.client.post(`/messages/${threadId}`, js ? { intent: "send", body, js: "1" } : { intent: "send", body });

/** The top bar's Messages link's accessible name for this client. */
async function messagesLabel(client: SessionClient): Promise<string | null> {
  const html = await text(await client.get("/how-it-works"));
  const link = /<a[^>]*href="\/messages"[^>]*>(.*?)<\/a>/.exec(html)?.[1];
  // Its name: the text that is not hidden from assistive technology.
  return link === undefined ? null : link.replace(/<span[^>]*aria-hidden="true"[^>]*>.*?<\/span>/g, "").replace(/<[^>]+>|<!-- -->/g, "");
}

describe("one thread per purchase", () => {
  it("is made when the purchase completes, once however many completions race, between the digger and the gig's client", async () => {
    const client = await signUpAs(app, "consumer", "Rita Racer");
    const digger = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id);
    const purchase = await insertPurchase(app, gig, digger.diggerId, { status: "pending", purchasedAt: null });
    expect(await db().select().from(threads).where(eq(threads.purchaseId, purchase.id))).toEqual([]);
    const outcomes = await Promise.all([1, 2, 3].map(() => completeCheckout(app.services, purchase.providerSessionId!, null)));
    expect(outcomes.filter((o) => o === "completed")).toHaveLength(1);
    const made = await db().select().from(threads).where(eq(threads.purchaseId, purchase.id));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ diggerUserId: digger.id, clientId: client.id });
  });

  it("is not made for a checkout that never completes", async () => {
    const client = await signUpAs(app, "consumer", "Nina Nopay");
    const digger = await diggerWithProfile(app);
    const purchase = await insertPurchase(app, await insertGig(app, client.id), digger.diggerId, { status: "cancelled", purchasedAt: null });
    expect(await db().select().from(threads).where(eq(threads.purchaseId, purchase.id))).toEqual([]);
  });

  it("keeps one thread under both parties' concurrent first messages, with every message in it", async () => {
    const lead = await boughtLead(app);
    const answers = await Promise.all([send(lead.digger, lead.threadId, "Hello from the digger"), send(lead.client, lead.threadId, "Hello from the client")]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await db().select().from(threads).where(eq(threads.purchaseId, lead.purchaseId))).toHaveLength(1);
    const written = await db().select().from(messages).where(eq(messages.threadId, lead.threadId));
    expect(written.map((m) => m.body).sort()).toEqual(["Hello from the client", "Hello from the digger"]);
    const [thread] = await db().select().from(threads).where(eq(threads.id, lead.threadId));
    expect(thread!.lastMessageSeq).toBe(Math.max(...written.map((m) => m.seq)));
  });

  it("is opened from the Message link of the lead card and of the client's Diggers dialog", async () => {
    const lead = await boughtLead(app);
    expect(await text(await lead.digger.client.get("/my-leads"))).toContain(`href="/messages/${lead.threadId}"`);
    // The Diggers dialog reads its list from this address; each digger's Message link is to their thread.
    expect(await text(await lead.client.client.get(`/my-gigs/${lead.gig.id}/diggers`))).toContain(`"threadId":"${lead.threadId}"`);
  });
});

describe("who may open and send to a thread", () => {
  it("lets both parties open it and send to it; the 404 page for another digger of the gig, a stranger and an operator; a visitor signs in", async () => {
    const lead = await boughtLead(app);
    const rival = await diggerWithProfile(app);
    await insertPurchase(app, lead.gig, rival.diggerId);
    const stranger = await signUpAs(app, "consumer", "Sam Stranger");
    const path = `/messages/${lead.threadId}`;

    const diggerPage = await lead.digger.client.get(path);
    expect(diggerPage.status).toBe(200);
    expect(await text(diggerPage)).toContain(emptyThreadForDigger("Clara"));
    const clientPage = await lead.client.client.get(path);
    expect(clientPage.status).toBe(200);
    const clientHtml = await text(clientPage);
    expect(clientHtml).toContain(MESSAGE_TEXTS.emptyForClient);
    expect(clientHtml).toContain(handleOf(lead.digger));

    for (const outsider of [rival, stranger, operator]) {
      expect((await outsider.client.get(path)).status).toBe(404);
      expect((await send(outsider, lead.threadId, "Let me in")).status).toBe(404);
      expect((await outsider.client.post(path, { intent: "block" })).status).toBe(404);
    }
    const visitor = new SessionClient(app);
    expect(location(await visitor.get(path))).toBe(`/auth?redirect=${encodeURIComponent(path)}`);
    expect(location(await visitor.post(path, { intent: "send", body: "Hi" }))).toMatch(/^\/auth\?redirect=/);
    expect((await lead.digger.client.get(`/messages/${randomUUID()}`)).status).toBe(404);
    expect((await lead.digger.client.get("/messages/not-a-uuid")).status).toBe(404);
    expect(await db().select().from(messages).where(eq(messages.threadId, lead.threadId))).toEqual([]);

    // A report does not open the thread's address to an operator either.
    expect((await send(lead.client, lead.threadId, "Pay me outside the site please")).status).toBe(200);
    const [message] = await db().select().from(messages).where(eq(messages.threadId, lead.threadId));
    expect((await lead.digger.client.post(path, { intent: "report", messageId: message!.id, reason: "Asks to pay outside the site" })).status).toBe(200);
    expect((await operator.client.get(path)).status).toBe(404);
  });

  it("stays readable after the gig closes; a deleted account shows as 'Deleted user' and cannot be written to", async () => {
    const lead = await boughtLead(app);
    expect((await send(lead.digger, lead.threadId, "Still keen on the deck?")).status).toBe(200);
    await db().execute(sql`update gigs set status = 'closed' where id = ${lead.gig.id}`);
    expect(await text(await lead.client.client.get(`/messages/${lead.threadId}`))).toContain("Still keen on the deck?");
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, lead.client.id));
    const page = await text(await lead.digger.client.get(`/messages/${lead.threadId}`));
    expect(page).toContain(MESSAGE_TEXTS.deletedUser);
    expect(await text(await lead.digger.client.get("/messages"))).toContain(MESSAGE_TEXTS.deletedUser);
    const refused = await send(lead.digger, lead.threadId, "Hello?");
    expect(refused.status).toBe(409);
  });

  it("refuses a suspended account's message", async () => {
    const lead = await boughtLead(app);
    await db().update(users).set({ suspendedAt: new Date(), suspendedReason: "Spam" }).where(eq(users.id, lead.digger.id));
    // Suspension signs the account out; a session that outlived it still cannot send.
    const answer = await send(lead.digger, lead.threadId, "Buy my stuff");
    expect([302, 403]).toContain(answer.status);
    expect(await db().select().from(messages).where(eq(messages.threadId, lead.threadId))).toEqual([]);
  });
});

describe("messages", () => {
  it("refuses an empty or too long message and keeps none; shows text as text, with its http(s) links made clickable", async () => {
    const lead = await boughtLead(app);
    const empty = await send(lead.digger, lead.threadId, "   ");
    expect(empty.status).toBe(400);
    expect(await text(empty)).toContain(MESSAGE_TEXTS.empty);
    expect((await send(lead.digger, lead.threadId, "x".repeat(5001))).status).toBe(400);
    expect((await send(lead.digger, lead.threadId, "é".repeat(5000))).status).toBe(200);

    const body = `<b>bold</b> <script>alert(1)</script> see https://example.com/deck?a=1&b=2. and javascript:alert(2) www.example.org`;
    expect((await send(lead.digger, lead.threadId, body)).status).toBe(200);
    const html = await (await lead.client.client.get(`/messages/${lead.threadId}`)).text();
    expect(html).not.toContain("<b>bold</b>");
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain('<a href="https://example.com/deck?a=1&amp;b=2" rel="nofollow ugc noopener"');
    expect(html).not.toMatch(/href="javascript:/);
    expect(html).not.toContain('href="www.example.org"');
  });

  it("without JavaScript, sending is a form post that comes back to the thread", async () => {
    const lead = await boughtLead(app);
    const answer = await send(lead.digger, lead.threadId, "Sent without scripts", false);
    expect(answer.status).toBe(303);
    expect(location(answer)).toBe(`/messages/${lead.threadId}`);
    expect(await text(await lead.digger.client.get(location(answer)!))).toContain("Sent without scripts");
  });

  it("shows the newest 50 and 'Show earlier messages' for the rest, oldest first on each page", async () => {
    const lead = await boughtLead(app);
    for (let i = 1; i <= 55; i++) {
      await db().insert(messages).values({ threadId: lead.threadId, senderId: i % 2 ? lead.digger.id : lead.client.id, body: `Numbered message ${String(i).padStart(3, "0")}` });
    }
    const html = await text(await lead.client.client.get(`/messages/${lead.threadId}`));
    const shown = [...html.matchAll(/>Numbered message (\d{3})</g)].map((m) => Number(m[1]));
    expect(shown).toEqual(Array.from({ length: 50 }, (_, i) => i + 6));
    const earlier = /href="[^"?]*(\?cursor=[^"]+)"/.exec(html)?.[1];
    expect(html).toContain(MESSAGE_TEXTS.showEarlier);
    const older = await text(await lead.client.client.get(`/messages/${lead.threadId}${earlier}`));
    expect([...older.matchAll(/>Numbered message (\d{3})</g)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5]);
    expect(older).not.toContain(MESSAGE_TEXTS.showEarlier);
  });
});

describe("the inbox, unread counts and read receipts", () => {
  it("counts unread threads in the top bar, lists them with 'Unread', marks a thread read when opened, and shows the sender 'Read'", async () => {
    const client = await signUpAs(app, "consumer", "Una Unread");
    const first = await boughtLead(app, { client });
    const second = await boughtLead(app, { client });
    expect(await messagesLabel(client.client)).toBe("Messages");
    await send(first.digger, first.threadId, "First digger here\nwith a second line");
    await send(second.digger, second.threadId, "Second digger here");
    expect(await messagesLabel(client.client)).toBe("Messages, 2 unread");
    expect(await messagesLabel(first.digger.client)).toBe("Messages");

    const inbox = await text(await client.client.get("/messages"));
    expect(inbox.indexOf(handleOf(second.digger))).toBeLessThan(inbox.indexOf(handleOf(first.digger)));
    expect(inbox.match(/>Unread</g)).toHaveLength(2);
    expect(inbox).toContain("First digger here");
    expect(inbox).not.toContain("with a second line");
    expect(inbox).toContain(first.gig.title);

    expect(await text(await first.digger.client.get(`/messages/${first.threadId}`))).not.toContain('data-testid="read-receipt"');
    await client.client.get(`/messages/${first.threadId}`);
    expect(await messagesLabel(client.client)).toBe("Messages, 1 unread");
    const seen = await text(await first.digger.client.get(`/messages/${first.threadId}`));
    expect(seen).toMatch(/data-testid="read-receipt">Read(<!-- -->)? <time/);

    // A reply: the digger's thread is unread, the client's own message never is for them; the digger sees the client's name.
    await send(client, first.threadId, "Thanks, when can you come?");
    expect(await messagesLabel(first.digger.client)).toBe("Messages, 1 unread");
    expect(await messagesLabel(client.client)).toBe("Messages, 1 unread");
    const diggerInbox = await text(await first.digger.client.get("/messages"));
    expect(diggerInbox).toContain("Una U.");
    expect(diggerInbox).toContain("Thanks, when can you come?");
  });

  it("pages the inbox 20 at a time by latest activity", async () => {
    const client = await signUpAs(app, "consumer", "Paula Pages");
    const leads = [];
    for (let i = 0; i < 22; i++) leads.push(await boughtLead(app, { client }));
    const first = await text(await client.client.get("/messages"));
    const listed = (html: string) => [...html.matchAll(/href="\/messages\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(listed(first)).toHaveLength(20);
    const cursor = /href="\/messages\?cursor=([^"]+)"/.exec(first)?.[1];
    expect(first).toContain("Load more");
    const second = await text(await client.client.get(`/messages?cursor=${cursor}`));
    expect(listed(second)).toHaveLength(2);
    expect(new Set([...listed(first), ...listed(second)]).size).toBe(22);
    // Newest activity first: the first lead's thread, written to now, comes first.
    await send(leads[0]!.digger, leads[0]!.threadId, "Bumping this one");
    expect(listed(await text(await client.client.get("/messages")))[0]).toBe(leads[0]!.threadId);
  });
});

describe("limits and safety", () => {
  it("lets a user send 30 messages a minute, then says to wait", async () => {
    const lead = await boughtLead(app);
    for (let i = 0; i < 30; i++) expect((await send(lead.digger, lead.threadId, `Message ${i}`)).status).toBe(200);
    const refused = await send(lead.digger, lead.threadId, "One too many");
    expect(refused.status).toBe(429);
    expect(await text(refused)).toContain(MESSAGE_TEXTS.tooFast);
    // The limit is the sender's: the client still writes.
    expect((await send(lead.client, lead.threadId, "My turn")).status).toBe(200);
  });

  it("Block stops messages both ways and says so to each; Unblock undoes it", async () => {
    const lead = await boughtLead(app);
    const path = `/messages/${lead.threadId}`;
    expect((await lead.client.client.post(path, { intent: "block" })).status).toBe(200);
    expect((await lead.client.client.post(path, { intent: "block" })).status).toBe(200);
    expect(await text(await lead.client.client.get(path))).toContain(youBlockedText(handleOf(lead.digger)));
    const diggerView = await text(await lead.digger.client.get(path));
    expect(diggerView).toContain(blockedByText("Clara C."));
    expect(diggerView).not.toContain('name="body"');
    expect((await send(lead.digger, lead.threadId, "Please answer")).status).toBe(403);
    expect((await send(lead.client, lead.threadId, "Go away")).status).toBe(403);
    expect(await db().select().from(messages).where(eq(messages.threadId, lead.threadId))).toEqual([]);
    // Only the blocker can lift it.
    await lead.digger.client.post(path, { intent: "unblock" });
    expect((await send(lead.digger, lead.threadId, "Please answer")).status).toBe(403);
    expect((await lead.client.client.post(path, { intent: "unblock" })).status).toBe(200);
    expect((await send(lead.digger, lead.threadId, "Thanks for unblocking")).status).toBe(200);
  });

  it("Report puts a message in the console's Messages queue with the thread around it; Hide shows it removed to both, Keep leaves it; both audited", async () => {
    const lead = await boughtLead(app);
    const path = `/messages/${lead.threadId}`;
    await send(lead.digger, lead.threadId, "Before the bad one");
    await send(lead.client, lead.threadId, "Send me your bank password");
    await send(lead.digger, lead.threadId, "After the bad one");
    const rows = await db().select().from(messages).where(eq(messages.threadId, lead.threadId)).orderBy(messages.seq);
    const bad = rows[1]!;
    const good = rows[0]!;
    expect((await lead.digger.client.post(path, { intent: "report", messageId: bad.id, reason: "short" })).status).toBe(400);
    expect((await lead.digger.client.post(path, { intent: "report", messageId: bad.id, reason: "Phishing for my bank details" })).status).toBe(200);
    expect((await lead.digger.client.post(path, { intent: "report", messageId: bad.id, reason: "Phishing for my bank details" })).status).toBe(409);
    expect((await lead.client.client.post(path, { intent: "report", messageId: good.id, reason: "Testing the keep button" })).status).toBe(200);
    // A message of another thread is not reportable from this one.
    const other = await boughtLead(app);
    await send(other.digger, other.threadId, "Elsewhere");
    const [elsewhere] = await db().select().from(messages).where(eq(messages.threadId, other.threadId));
    expect((await lead.digger.client.post(path, { intent: "report", messageId: elsewhere!.id, reason: "Not in this thread at all" })).status).toBe(404);

    expect((await lead.digger.client.get("/ops/messages")).status).toBe(404);
    const queue = await text(await operator.client.get("/ops/messages"));
    expect(queue).toContain("Send me your bank password");
    expect(queue).toContain("Before the bad one");
    expect(queue).toContain("After the bad one");
    expect(queue).toContain("Phishing for my bank details");

    expect((await operator.client.post("/ops/messages", { intent: "hide", messageId: bad.id })).status).toBe(200);
    expect((await operator.client.post("/ops/messages", { intent: "hide", messageId: bad.id })).status).toBe(409);
    expect((await operator.client.post("/ops/messages", { intent: "keep", messageId: good.id })).status).toBe(200);
    for (const party of [lead.digger, lead.client]) {
      const html = await text(await party.client.get(path));
      expect(html).toContain(MESSAGE_TEXTS.removed);
      expect(html).not.toContain("Send me your bank password");
      expect(html).toContain("Before the bad one");
    }
    const audit = await db().select().from(operatorActions).where(eq(operatorActions.subjectType, "message"));
    expect(audit.filter((a) => a.subjectId === bad.id).map((a) => a.action)).toEqual(["message.hide"]);
    expect(audit.filter((a) => a.subjectId === good.id).map((a) => a.action)).toEqual(["message.keep"]);
    expect(await db().select().from(messageReports).where(and(eq(messageReports.messageId, bad.id), sql`${messageReports.resolvedAt} is null`))).toEqual([]);
    expect(await text(await operator.client.get("/ops/messages"))).not.toContain("Send me your bank password");
  });

  it("refuses an operator's Hide on a thread of their own", async () => {
    const lead = await boughtLead(app, { client: operator });
    await send(lead.digger, lead.threadId, "Hello operator as a client");
    const [message] = await db().select().from(messages).where(eq(messages.threadId, lead.threadId));
    await operator.client.post(`/messages/${lead.threadId}`, { intent: "report", messageId: message!.id, reason: "Reporting on my own thread" });
    expect((await operator.client.post("/ops/messages", { intent: "hide", messageId: message!.id })).status).toBe(403);
  });
});

describe("privacy", () => {
  it("exports the user's threads and messages; the purge blanks a deleted account's messages ('Message deleted') and the thread stays with the other party", async () => {
    const lead = await boughtLead(app);
    await send(lead.digger, lead.threadId, "Digger words to export");
    await send(lead.client, lead.threadId, "Client words to purge");
    const exported = JSON.parse(await (await lead.client.client.get("/account/data")).text()) as { threads: Array<{ id: string; with: string; messages: Array<{ text: string; fromMe: boolean }> }> };
    const thread = exported.threads.find((t) => t.id === lead.threadId);
    expect(thread?.with).toBe(handleOf(lead.digger));
    expect(thread?.messages).toEqual([
      expect.objectContaining({ text: "Digger words to export", fromMe: false }),
      expect.objectContaining({ text: "Client words to purge", fromMe: true }),
    ]);

    await db().update(users).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(users.id, lead.client.id));
    await purgeDeletedAccounts({ ...app.services, config: { accountPurgeDelayHours: 0 } });
    const kept = await db().select().from(messages).where(eq(messages.threadId, lead.threadId)).orderBy(messages.seq);
    expect(kept.map((m) => m.body)).toEqual(["Digger words to export", ""]);
    const page = await text(await lead.digger.client.get(`/messages/${lead.threadId}`));
    expect(page).toContain(MESSAGE_TEXTS.deletedMessage);
    expect(page).toContain(MESSAGE_TEXTS.deletedUser);
    expect(page).not.toContain("Client words to purge");
  });
});
