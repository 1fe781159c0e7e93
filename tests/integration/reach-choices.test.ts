/**
 * How to reach me (issue 34; core/reach.ts, server/events/emit.ts): each event is e-mailed and
 * pushed by its recipient's choices for its group, through the real app, its event path, its
 * job queue and a local push service over https (tests/support/push-service.ts: it checks the
 * VAPID JWT and decrypts each push with the device's private key). Exactly the pushes the
 * choices ask for arrive, with their title and link; none with Push off or without a device;
 * e-mail a person must not miss goes whatever they chose; a 410 removes the device; the table
 * on /account shows, saves and refuses what it should.
 */
import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { categories, gigs, leadAlertCategories, leadAlertSettings, pushSubscriptions, reachPreferences } from "../../server/db/schema.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import type { TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { jobsSettled } from "../support/jobs.ts";
import { boughtLead, decodeHtml, diggerWithProfile, mailTo } from "../support/leads.ts";
import { pushTestAppOfThisFile } from "../support/push-app.ts";
import type { PushService } from "../support/push-service.ts";
import { location } from "../support/session-client.ts";

const pushing = pushTestAppOfThisFile();
const { deviceOf, receivedBy } = pushing;
let app: TestApp;
let pushService: PushService;
beforeAll(() => void ({ app, pushService } = pushing));

const db = () => app.database.db;

/** Saves the How to reach me table as the browser posts it: the ticked boxes. */
async function choose(user: TestUser, ticked: string[], pushShown = true) {
  const form: Record<string, string> = { intent: "reach", ...Object.fromEntries(ticked.map((name) => [name, "on"])) };
  if (pushShown) form.push = "shown";
  const response = await user.client.post("/account", form);
  expect(response.status).toBe(200);
  expect(decodeHtml(await response.text())).toContain("Your notification choices are saved.");
}

const ALL_EMAIL = ["email.messages", "email.quotes", "email.lead-alerts", "email.purchases", "email.account"];
const ALL_PUSH = ["push.messages", "push.quotes", "push.lead-alerts", "push.purchases", "push.account"];

/** Waits until the queue has sent every push and e-mail. */
async function settled() {
  await jobsSettled(db(), "push.send");
  await jobsSettled(db(), "email.deliver");
}

describe("new messages", () => {
  const send = async (user: TestUser, threadId: string, body: string) =>
    expect((await user.client.post(`/messages/${threadId}`, { intent: "send", body, js: "1" })).status).toBe(200);

  it("are pushed at once, urgent, with the sender, the text as text and the thread's link; not with Push off", async () => {
    const lead = await boughtLead(app);
    const phone = await deviceOf(lead.digger);
    await send(lead.client, lead.threadId, "Can you come <b>Tuesday</b>?");
    await vi.waitFor(() => expect(receivedBy(phone)).toHaveLength(1), { timeout: 30_000 });
    expect(receivedBy(phone)[0]).toMatchObject({
      message: { title: "New message from Clara C.", body: `${lead.gig.title}: Can you come <b>Tuesday</b>?`, link: `/messages/${lead.threadId}` },
      urgency: "high",
      encoding: "aes128gcm",
    });
    // The e-mail keeps its 5 minutes: nothing yet.
    expect((await mailTo(app, lead.digger.email)).filter((m) => m.subject.startsWith("New message"))).toEqual([]);

    await choose(lead.digger, [...ALL_EMAIL, ...ALL_PUSH.filter((name) => name !== "push.messages")]);
    await send(lead.client, lead.threadId, "Still there?");
    await settled();
    expect(receivedBy(phone)).toHaveLength(1);
    expect(pushService.refused).toEqual([]);
  });
});

describe("instant lead alerts", () => {
  it("push a digger with Push on as the gig is posted, like the e-mail; E-mail off sends only the push, Push off only the e-mail", async () => {
    const client = await signUpAs(app, "consumer", "Carla Client");
    const [category] = await db().select({ id: categories.id }).from(categories).where(isNull(categories.parentCategoryId)).limit(1);
    const [both, pushOnly, emailOnly] = [await diggerWithProfile(app), await diggerWithProfile(app), await diggerWithProfile(app)];
    for (const digger of [both, pushOnly, emailOnly]) {
      // Instant alerts for the category, as the Lead alerts card saves them.
      await db().insert(leadAlertSettings).values({ diggerId: digger.diggerId, frequency: "instant" });
      await db().insert(leadAlertCategories).values({ diggerId: digger.diggerId, categoryId: category!.id });
    }
    const devices = { both: await deviceOf(both), pushOnly: await deviceOf(pushOnly), emailOnly: await deviceOf(emailOnly) };
    await choose(pushOnly, [...ALL_EMAIL.filter((name) => name !== "email.lead-alerts"), ...ALL_PUSH]);
    await choose(emailOnly, [...ALL_EMAIL, ...ALL_PUSH.filter((name) => name !== "push.lead-alerts")]);

    const title = `Fix the fence ${randomUUID().slice(0, 8)}`;
    const posted = await client.client.post("/post-gig", validGigForm(category!.id, { title, location: "Boulder, CO" }));
    expect(location(posted)).toBe("/");
    const [gig] = await db().select().from(gigs).where(eq(gigs.title, title));
    await jobsSettled(db(), "alerts.gig");
    await jobsSettled(db(), "alerts.deliver");
    await settled();

    const alertMail = async (digger: TestUser) => (await mailTo(app, digger.email)).filter((m) => m.subject === `New lead: ${title}`);
    expect(receivedBy(devices.both)).toMatchObject([{ message: { title: `New lead: ${title}`, link: `/gig/${gig!.id}` }, urgency: "high" }]);
    expect(await alertMail(both)).toHaveLength(1);
    expect(receivedBy(devices.pushOnly)).toMatchObject([{ message: { title: `New lead: ${title}`, link: `/gig/${gig!.id}` } }]);
    expect(await alertMail(pushOnly)).toEqual([]);
    expect(receivedBy(devices.emailOnly)).toEqual([]);
    expect(await alertMail(emailOnly)).toHaveLength(1);
  });
});

describe("each event by its group's choices", () => {
  it("pushes exactly the recipients with a device and Push on, with the bell's line and link", async () => {
    const [withDevice, pushOff, noDevice] = [await signUpAs(app, "digger"), await signUpAs(app, "digger"), await signUpAs(app, "digger")];
    const [on, off] = [await deviceOf(withDevice), await deviceOf(pushOff)];
    await choose(pushOff, [...ALL_EMAIL, ...ALL_PUSH.filter((name) => name !== "push.quotes")]);
    const gigId = randomUUID();
    await db().transaction((tx) => app.services.emit(tx, { kind: "gig.filled", gigId, gigTitle: "Paint the shed", buyerUserIds: [withDevice.id, pushOff.id, noDevice.id] }));
    await settled();
    expect(receivedBy(on)).toMatchObject([{ message: { title: "Quotes and decisions", body: 'The gig "Paint the shed" you bought was closed as filled', link: "/my-leads" }, urgency: "normal" }]);
    expect(receivedBy(off)).toEqual([]);
    // E-mail on by default for all three.
    for (const user of [withDevice, pushOff, noDevice]) expect((await mailTo(app, user.email)).map((m) => m.subject)).toContain('The gig "Paint the shed" has been filled');
  });

  it("sends e-mail a person must not miss whatever they chose, and no other with E-mail off", async () => {
    const [client, operator] = [await signUpAs(app, "consumer"), await signUpAs(app, "consumer")];
    await choose(client, []);
    const [saved] = await db().select().from(reachPreferences).where(and(eq(reachPreferences.userId, client.id), eq(reachPreferences.group, "account")));
    expect(saved!.email).toBe(true); // Its box cannot be cleared.
    const issueId = randomUUID();
    await db().transaction(async (tx) => {
      // An issue deadline: must not miss.
      await app.services.emit(tx, { kind: "issue.reminder", issueId, clientUserId: client.id, gigTitle: "Tile the bathroom", issueType: "mistake", respondBy: new Date(Date.now() + 86_400_000) });
      // A purchase of their lead: their choice (off).
      await app.services.emit(tx, { kind: "lead.bought", purchaseId: randomUUID(), clientUserId: client.id, clientName: "Cleo", handle: "ace-plumbing", gigTitle: "Tile the bathroom", amountCents: 2500, diggerId: randomUUID() });
      // Moderation: the always-e-mailed row.
      await app.services.emit(tx, { kind: "gig.restored", operatorId: operator.id, gigId: randomUUID(), gigTitle: "Tile the bathroom", ownerId: client.id });
    });
    const subjects = (await mailTo(app, client.email)).map((m) => m.subject).sort();
    expect(subjects).toEqual(['Reminder: respond to the issue on your gig "Tile the bathroom"', 'Your gig "Tile the bathroom" is shown again'].sort());
  });

  it("removes a device its push service says is gone (410) when an event pushes to it", async () => {
    const user = await signUpAs(app, "digger");
    const [gone, kept] = [await deviceOf(user), await deviceOf(user)];
    pushService.answer(gone, 410);
    await db().transaction((tx) => app.services.emit(tx, { kind: "hire.marked", purchaseId: randomUUID(), diggerUserId: user.id, diggerId: randomUUID(), gigTitle: "Hang a door" }));
    await vi.waitFor(() => expect(receivedBy(kept)).toHaveLength(1), { timeout: 30_000 });
    expect(receivedBy(kept)[0]!.message).toEqual({ title: "Quotes and decisions", body: 'You were marked as hired for "Hang a door"', link: expect.stringMatching(/^\/digger\//) });
    await vi.waitFor(async () => expect((await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).map((d) => d.endpoint)).toEqual([kept.endpoint]), { timeout: 30_000 });
  });
});

describe("the How to reach me table on /account", () => {
  const rowsOf = (html: string) => [...decodeHtml(html).matchAll(/aria-label="(E-mail|Push): ([^"]+)"/g)].map((m) => `${m[1]}: ${m[2]}`);

  it("shows a client's rows (no instant alerts), Push only once a device is on, and the always-e-mailed box ticked and locked", async () => {
    const client = await signUpAs(app, "consumer");
    const before = await (await client.client.get("/account")).text();
    expect(rowsOf(before)).toEqual(["E-mail: New messages", "E-mail: Quotes and decisions", "E-mail: Visits", "E-mail: Purchases of my leads and issues", "E-mail: Account and moderation notices"]);
    expect(decodeHtml(before)).toContain("Turn on notifications on this device (above) to choose Push.");
    expect(before).toContain(">Push</th>");
    expect(before).toMatch(/<button[^>]*aria-checked="true"[^>]*disabled=""[^>]*aria-label="E-mail: Account and moderation notices"/);
    await deviceOf(client);
    const after = await (await client.client.get("/account")).text();
    expect(rowsOf(after)).toContain("Push: New messages");
    expect(after).toMatch(/aria-label="Push: New messages"[^>]*aria-checked="true"|aria-checked="true"[^>]*aria-label="Push: New messages"/);
  });

  it("shows a digger the instant alerts row and not the clients' one", async () => {
    const digger = await signUpAs(app, "digger");
    const rows = rowsOf(await (await digger.client.get("/account")).text());
    expect(rows).toContain("E-mail: Instant lead alerts");
    expect(rows).not.toContain("E-mail: Purchases of my leads and issues");
  });

  it("keeps the Push choices when the form has no Push column, and saves only the user's own", async () => {
    const [user, other] = [await signUpAs(app, "consumer"), await signUpAs(app, "consumer")];
    await choose(user, ["email.messages"]);
    await choose(user, ["email.quotes"], false);
    const mine = await db().select().from(reachPreferences).where(eq(reachPreferences.userId, user.id));
    expect(Object.fromEntries(mine.map((r) => [r.group, { email: r.email, push: r.push }]))).toEqual({
      messages: { email: false, push: false },
      quotes: { email: true, push: false },
      visits: { email: false, push: false },
      "lead-alerts": { email: false, push: false },
      purchases: { email: false, push: false },
      account: { email: true, push: false },
    });
    // A user id in the form is not read: the other user's choices are untouched.
    await choose(user, [], true);
    await user.client.post("/account", { intent: "reach", push: "shown", userId: other.id });
    expect(await db().select().from(reachPreferences).where(eq(reachPreferences.userId, other.id))).toEqual([]);
  });

  it("refuses a box that is not a box, and a signed-out visitor", async () => {
    const user = await signUpAs(app, "consumer");
    const bad = await user.client.post("/account", { intent: "reach", "email.messages": "yes" });
    expect(bad.status).toBe(400);
    expect(decodeHtml(await bad.text())).toContain("Choose on or off");
    const odd = await user.client.post("/account", { intent: "reach", push: "hidden" });
    expect(odd.status).toBe(400);
    expect(await db().select().from(reachPreferences).where(eq(reachPreferences.userId, user.id))).toEqual([]);
    const visitor = await app.request("/account", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl }, body: "intent=reach" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/auth/);
  });
});
