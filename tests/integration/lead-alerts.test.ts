/**
 * Lead alerts (issue 21, docs/decisions/0023-lead-alerts.md): the Lead alerts card's form, the
 * matching rules, instant alerts when a gig becomes visible (posted, confirmed later, reopened),
 * exactly one alert per gig and digger with two workers, the daily digest, and the one-click
 * unsubscribe. Through the real app and its job queue (outbox mail: e-mails are rows).
 */
import { randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertFrequency } from "../../core/lead-alerts.ts";
import { sendDailyDigests } from "../../server/alerts/digest.ts";
import { alertGig, deliverLeadAlertBatch, fanOutLeadAlerts } from "../../server/alerts/fan-out.ts";
import { matchingDiggers } from "../../server/alerts/matching.ts";
import { queryRows } from "../../server/db/client.ts";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { categories, diggerCategories, emails, gigs, leadAlertCategories, leadAlerts, leadAlertSettings, phoneVerifications, smsOutbox, users } from "../../server/db/schema.ts";
import { checkPhoneCode } from "../../server/phones/check-code.ts";
import { parsePhone } from "../../server/phones/parse-phone.ts";
import { sendPhoneCode } from "../../server/phones/send-code.ts";
import { signUpAs, TEST_PASSWORD, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { jobsSettled } from "../support/jobs.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let clientUser: TestUser;
/** A top-level category, one of its sub-categories, and another top-level category. */
let parentId: string;
let subId: string;
let otherId: string;

beforeAll(async () => {
  app = await createTestApp();
  clientUser = await signUpAs(app, "consumer", "Carla Client");
  const [sub] = await app.database.db.select().from(categories).where(isNotNull(categories.parentCategoryId)).limit(1);
  subId = sub!.id;
  parentId = sub!.parentCategoryId!;
  const [other] = await app.database.db
    .select()
    .from(categories)
    .where(and(isNull(categories.parentCategoryId), sql`${categories.id} <> ${parentId}`))
    .limit(1);
  otherId = other!.id;
});
afterAll(() => app?.close());

const db = () => app.database.db;

interface Alerts {
  frequency?: AlertFrequency;
  categoryIds?: string[];
  keywords?: string[];
  location?: string | null;
  maxLeadPriceCents?: number | null;
  verifiedPhoneOnly?: boolean;
}

/** A digger whose saved alerts are `alerts` (written directly; the form has its own test). */
async function diggerWithAlerts(alerts: Alerts = {}): Promise<TestDigger> {
  const digger = await diggerWithProfile(app);
  const { categoryIds = [parentId], ...settings } = alerts;
  await db().insert(leadAlertSettings).values({ diggerId: digger.diggerId, ...settings });
  if (categoryIds.length > 0) await db().insert(leadAlertCategories).values(categoryIds.map((categoryId) => ({ diggerId: digger.diggerId, categoryId })));
  return digger;
}

/** The Lead alerts card's Save, as the browser posts it (categories repeated). */
function saveAlerts(client: SessionClient, fields: Record<string, string>, categoryIds: string[]) {
  const body = new URLSearchParams({ intent: "lead-alerts", ...fields });
  for (const id of categoryIds) body.append("categoryIds", id);
  return client.send("/account", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl },
    body: body.toString(),
  });
}

/** Waits for the queue: the fan-out, then its batches, then nothing due. */
async function alertsSettled() {
  await jobsSettled(db(), "alerts.gig");
  await jobsSettled(db(), "alerts.deliver");
}

const alertsTo = async (digger: TestUser, subject?: string) =>
  (await mailTo(app, digger.email)).filter((m) => (subject ? m.subject === subject : m.subject.startsWith("New lead: ")));

/** A gig posted through /post-gig (a confirmed client goes home, an unconfirmed one to My Gigs: issue 47). */
async function postGig(client: SessionClient, over: Record<string, string> = {}) {
  const title = `Build a cedar deck ${randomUUID().slice(0, 8)}`;
  const response = await client.post("/post-gig", validGigForm(parentId, { title, location: "Boulder, CO", budgetMin: "5000", budgetMax: "9000", ...over }));
  const [gig] = await db().select().from(gigs).where(eq(gigs.title, over.title ?? title));
  expect(location(response)).toBe(gig!.published ? "/" : "/my-gigs");
  return gig!;
}

describe("the Lead alerts card", () => {
  it("shows a digger Instant for the profile's categories by default, and saves every preference", async () => {
    const digger = await diggerWithProfile(app);
    await db().insert(diggerCategories).values({ diggerId: digger.diggerId, categoryId: otherId });
    const page = decodeHtml(await (await digger.client.get("/account")).text());
    expect(page).toContain("Lead alerts");
    // The boxes and buttons ticked as the page comes from the server: Instant and the profile's
    // category, and the e-mail boxes that are on by default, whose boxes send "on": How to reach
    // me's E-mail for a digger's five rows (New messages, Quotes and decisions, Visits, Instant
    // lead alerts, Account and moderation notices; no device, so no Push). Promotional e-mail is
    // opt-in (issue 47): its box is not ticked.
    const ticked = [...page.matchAll(/<input[^>]*>/g)].map((m) => m[0]).filter((tag) => tag.includes('checked=""')).map((tag) => /value="([^"]+)"/.exec(tag)?.[1]);
    expect(ticked.sort()).toEqual(["instant", otherId, "on", "on", "on", "on", "on"].sort());

    const saved = await saveAlerts(digger.client, { frequency: "daily", keywords: "deck,  cedar , deck", location: "Boulder", maxLeadPrice: "75.50" }, [parentId, subId]);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Alert preferences saved");
    const [row] = await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId));
    expect(row).toMatchObject({ frequency: "daily", keywords: ["deck", "cedar"], location: "Boulder", maxLeadPriceCents: 7550 });
    const cats = await db().select().from(leadAlertCategories).where(eq(leadAlertCategories.diggerId, digger.diggerId));
    expect(cats.map((c) => c.categoryId).sort()).toEqual([parentId, subId].sort());
  });

  it("refuses bad input with the form's messages, and anyone but a digger with a profile", async () => {
    const digger = await diggerWithProfile(app);
    const refusal = async (fields: Record<string, string>, ids: string[]) => {
      const response = await saveAlerts(digger.client, fields, ids);
      expect(response.status).toBe(400);
      return decodeHtml(await response.text());
    };
    expect(await refusal({ frequency: "instant" }, [])).toContain("Please select at least one category");
    expect(await refusal({ frequency: "sometimes" }, [parentId])).toContain("Please choose how often to get lead alerts");
    expect(await refusal({ frequency: "instant", maxLeadPrice: "cheap" }, [parentId])).toContain("Please enter the maximum lead price in dollars");
    expect(await refusal({ frequency: "instant", maxLeadPrice: "0" }, [parentId])).toContain("Maximum lead price must be more than $0");
    expect(await refusal({ frequency: "instant" }, [randomUUID()])).toContain("Please select categories from the list");
    expect(await refusal({ frequency: "instant" }, ["not-a-category"])).toContain("Please select categories from the list");
    expect(await refusal({ frequency: "instant", keywords: Array.from({ length: 11 }, (_, i) => `k${i}`).join(",") }, [parentId])).toContain("Please enter at most 10 keywords");
    expect(await refusal({ frequency: "instant", location: "x".repeat(101) }, [parentId])).toContain("Location must be at most 100 characters");
    expect(await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId))).toEqual([]);
    // Off needs no category.
    expect((await saveAlerts(digger.client, { frequency: "off" }, [])).status).toBe(200);

    const client = await signUpAs(app, "consumer");
    expect((await saveAlerts(client.client, { frequency: "instant" }, [parentId])).status).toBe(403);
    expect(await (await client.client.get("/account")).text()).not.toContain("Lead alerts");
    const noProfile = await signUpAs(app, "digger");
    const sent = await saveAlerts(noProfile.client, { frequency: "instant" }, [parentId]);
    expect(location(sent)).toBe("/digger-registration");
    expect(await (await noProfile.client.get("/account")).text()).toContain("Complete your digger profile");
    expect(location(await saveAlerts(new SessionClient(app), { frequency: "instant" }, [parentId]))).toMatch(/^\/auth/);
  });
});

describe("matching", () => {
  it("finds exactly the diggers whose category, sub-category, keywords, location and maximum price match, never the bought, suspended, deleted or off", async () => {
    const gigRow = await insertGig(app, clientUser.id, { categoryId: subId, title: `Build a cedar deck ${randomUUID().slice(0, 6)}`, location: "Boulder, CO", budgetMinCents: 500_000 });
    const expected = {
      parent: await diggerWithAlerts({ categoryIds: [parentId] }),
      sub: await diggerWithAlerts({ categoryIds: [subId] }),
      keywords: await diggerWithAlerts({ keywords: ["Cedar", "deck"] }),
      location: await diggerWithAlerts({ location: "boulder" }),
      priceEqual: await diggerWithAlerts({ maxLeadPriceCents: 5000 }),
      byProfile: await diggerWithProfile(app),
    };
    await db().insert(diggerCategories).values({ diggerId: expected.byProfile.diggerId, categoryId: parentId });
    const left = {
      otherCategory: await diggerWithAlerts({ categoryIds: [otherId] }),
      keywordMissing: await diggerWithAlerts({ keywords: ["cedar", "pool"] }),
      locationMissing: await diggerWithAlerts({ location: "Denver" }),
      tooExpensive: await diggerWithAlerts({ maxLeadPriceCents: 4999 }),
      bought: await diggerWithAlerts(),
      suspended: await diggerWithAlerts(),
      deleted: await diggerWithAlerts(),
      off: await diggerWithAlerts({ frequency: "off" }),
      daily: await diggerWithAlerts({ frequency: "daily" }),
      profileOtherCategory: await diggerWithProfile(app),
    };
    await db().insert(diggerCategories).values({ diggerId: left.profileOtherCategory.diggerId, categoryId: otherId });
    await insertPurchase(app, gigRow, left.bought.diggerId);
    await db().update(users).set({ suspendedAt: new Date(), suspendedReason: "Test suspension" }).where(eq(users.id, left.suspended.id));
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, left.deleted.id));

    const gig = (await alertGig(db(), gigRow.id))!;
    const found = new Set((await matchingDiggers(db(), gig, "instant")).map((r) => r.diggerId));
    for (const [name, digger] of Object.entries(expected)) expect({ name, matched: found.has(digger.diggerId) }).toEqual({ name, matched: true });
    for (const [name, digger] of Object.entries(left)) expect({ name, matched: found.has(digger.diggerId) }).toEqual({ name, matched: false });
    // The daily digger matches as a daily one.
    expect((await matchingDiggers(db(), gig, "daily")).map((r) => r.diggerId)).toContain(left.daily.diggerId);
  });
});

describe("instant alerts", () => {
  it("e-mails a matching digger once when a confirmed client posts, with the gig's details, its link and a one-click unsubscribe", async () => {
    const digger = await diggerWithAlerts({ keywords: ["cedar"] });
    const elsewhere = await diggerWithAlerts({ categoryIds: [otherId] });
    const gig = await postGig(clientUser.client);
    await alertsSettled();

    const [alert, ...more] = await alertsTo(digger);
    expect(more).toEqual([]);
    expect(alert!.subject).toBe(`New lead: ${gig.title}`);
    const [category] = await db().select().from(categories).where(eq(categories.id, parentId));
    for (const line of [`Category: ${category!.name}`, "Budget: $5,000 - $9,000", "Location: Boulder, CO", "Lead price: $50.00", "Spots left: 3 of 3", `${app.config.publicUrl}/gig/${gig.id}`, `${app.config.publicUrl}/account`]) {
      expect(alert!.textBody).toContain(line);
    }
    expect(alert!.listUnsubscribeUrl).toMatch(new RegExp(`^${app.config.publicUrl}/unsubscribe\\?token=.+&list=lead-alerts$`));
    expect(alert!.textBody).toContain(alert!.listUnsubscribeUrl!);
    expect(await alertsTo(elsewhere)).toEqual([]);
    expect(await db().select().from(leadAlerts).where(and(eq(leadAlerts.gigId, gig.id), eq(leadAlerts.diggerId, digger.diggerId)))).toHaveLength(1);
  });

  it("alerts nobody while the client's e-mail is unconfirmed, and the matching diggers once it is confirmed", async () => {
    const digger = await diggerWithAlerts();
    const client = new SessionClient(app);
    const email = `late-${randomUUID()}@example.com`;
    expect((await client.post("/auth", { intent: "sign-up", fullName: "Lena Late", email, password: TEST_PASSWORD, userType: "consumer", ageConfirmed: "on" })).status).toBe(302);
    const gig = await postGig(client);
    expect(gig.published).toBe(false);
    await alertsSettled();
    expect(await alertsTo(digger)).toEqual([]);

    const [confirmation] = await mailTo(app, email);
    const link = new URL(/https?:\/\/\S+\/verify-email\?token=\S+/.exec(confirmation!.textBody)![0]);
    const confirmed = await client.post(`${link.pathname}${link.search}`, { token: link.searchParams.get("token")! });
    expect(confirmed.status).toBe(302);
    await alertsSettled();
    expect((await alertsTo(digger)).map((m) => m.subject)).toEqual([`New lead: ${gig.title}`]);
  });

  it("on reopening, alerts the diggers who match now and never heard of the gig, and nobody twice", async () => {
    const early = await diggerWithAlerts();
    const gig = await postGig(clientUser.client);
    await alertsSettled();
    const change = (status: "open" | "closed") => clientUser.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status });
    expect((await change("closed")).status).toBeLessThan(400);
    const late = await diggerWithAlerts();
    await alertsSettled();
    expect(await alertsTo(late)).toEqual([]);
    expect((await change("open")).status).toBeLessThan(400);
    await alertsSettled();
    expect(await alertsTo(late)).toHaveLength(1);
    expect(await alertsTo(early)).toHaveLength(1);
  });

  it("sends exactly one e-mail per digger for a gig with two workers running its jobs, however often they run", async () => {
    const second = await createTestApp({}, { database: app.database });
    try {
      const diggers = await Promise.all(Array.from({ length: 5 }, () => diggerWithAlerts({ categoryIds: [otherId] })));
      const gig = await insertGig(app, clientUser.id, { categoryId: otherId });
      // Both servers enqueue the fan-out twice, and both run the same batch at the same moment.
      await Promise.all([app, second, app, second].map((a) => a.services.jobs.send("alerts.gig", { gigId: gig.id })));
      const ids = diggers.map((d) => d.diggerId);
      await Promise.all([deliverLeadAlertBatch(app.services, gig.id, ids), deliverLeadAlertBatch(second.services, gig.id, ids)]);
      await alertsSettled();
      for (const digger of diggers) expect((await alertsTo(digger)).map((m) => m.subject)).toEqual([`New lead: ${gig.title}`]);
      // Each claim records its own digger's e-mail (the batch writes them in one statement). The
      // fan-out also alerts earlier tests' diggers of this category: only these five are counted.
      const recorded = (
        await db()
          .select({ diggerId: leadAlerts.diggerId, to: emails.toAddress, subject: emails.subject })
          .from(leadAlerts)
          .innerJoin(emails, eq(emails.id, leadAlerts.emailId))
          .where(eq(leadAlerts.gigId, gig.id))
      ).filter((r) => ids.includes(r.diggerId));
      expect(recorded).toHaveLength(diggers.length);
      for (const digger of diggers) expect(recorded.find((r) => r.diggerId === digger.diggerId)).toMatchObject({ to: digger.email, subject: `New lead: ${gig.title}` });
    } finally {
      await second.close();
    }
  });
});

describe("the daily digest", () => {
  it("lists the day's matching gigs newest first, at most 20 with a link to the rest, once a day; nothing matched, no e-mail", async () => {
    const digger = await diggerWithAlerts({ frequency: "daily", categoryIds: [otherId], keywords: ["digest-only"] });
    const idle = await diggerWithAlerts({ frequency: "daily", categoryIds: [otherId], keywords: ["nothing-has-this"] });
    const instant = await diggerWithAlerts({ categoryIds: [otherId], keywords: ["digest-only"] });
    const made = [];
    for (let i = 0; i < 22; i++) {
      const gig = await insertGig(app, clientUser.id, { categoryId: otherId, title: `Digest-only gig number ${String(i).padStart(2, "0")}` });
      await db().update(gigs).set({ visibleSince: sql`now() - make_interval(mins => ${60 * 23 - i})` }).where(eq(gigs.id, gig.id));
      made.push(gig);
    }
    // Visible for more than a day: not today's.
    const old = await insertGig(app, clientUser.id, { categoryId: otherId, title: "Digest-only gig from yesterday" });
    await db().update(gigs).set({ visibleSince: sql`now() - interval '25 hours'` }).where(eq(gigs.id, old.id));

    expect(await sendDailyDigests(app.services)).toBeGreaterThanOrEqual(1);
    const [digest, ...more] = (await mailTo(app, digger.email)).filter((m) => m.subject.startsWith("Your lead alerts"));
    expect(more).toEqual([]);
    expect(digest!.subject).toBe("Your lead alerts: 22 new gigs");
    const listed = [...digest!.textBody.matchAll(/Digest-only gig number (\d\d)/g)].map((m) => m[1]);
    expect(listed).toEqual(Array.from({ length: 20 }, (_, i) => String(21 - i).padStart(2, "0")));
    expect(digest!.textBody).toContain(`And 2 more: ${app.config.publicUrl}/browse-gigs?category=${otherId}`);
    expect(digest!.textBody).not.toContain("yesterday");
    expect(digest!.listUnsubscribeUrl).toContain("list=lead-alerts");
    expect(await mailTo(app, idle.email)).toEqual([]);
    expect(await mailTo(app, instant.email)).toEqual([]);

    // The same day again: nothing new.
    await sendDailyDigests(app.services);
    expect((await mailTo(app, digger.email)).filter((m) => m.subject.startsWith("Your lead alerts"))).toHaveLength(1);
  });
});

describe("the digest's schedule", () => {
  it("runs at DIGEST_HOUR in the server's time zone (pg-boss's own schedule)", async () => {
    const schedule = () => queryRows<{ cron: string; timezone: string }>(db(), sql`select cron, timezone from pgboss.schedule where name = 'alerts.digest'`);
    expect(await schedule()).toEqual([{ cron: "0 8 * * *", timezone: "UTC" }]);
    const paris = await createTestApp({ DIGEST_HOUR: "6", DIGEST_TIME_ZONE: "Europe/Paris" }, { database: app.database });
    try {
      expect(await schedule()).toEqual([{ cron: "0 6 * * *", timezone: "Europe/Paris" }]);
    } finally {
      await paris.close();
    }
  });
});

describe("the one-click unsubscribe", () => {
  it("turns lead alerts off without signing in, and changes nothing else", async () => {
    const digger = await diggerWithAlerts({ categoryIds: [otherId, subId], keywords: ["unsubscribe-me"], location: "Boulder", maxLeadPriceCents: 9000 });
    const gig = await insertGig(app, clientUser.id, { categoryId: otherId, title: "A gig to unsubscribe-me from" });
    await deliverLeadAlertBatch(app.services, gig.id, [digger.diggerId]);
    const [alert] = await alertsTo(digger);
    const url = new URL(alert!.listUnsubscribeUrl!);
    const [before] = await db().select({ promotional: users.promotionalEmail }).from(users).where(eq(users.id, digger.id));

    const visitor = new SessionClient(app);
    const page = await visitor.get(`${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(decodeHtml(await page.text())).toContain("Lead alerts from Digs & Gigs");
    // The mail client's RFC 8058 one-click POST.
    const done = await visitor.send(`${url.pathname}${url.search}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl },
      body: "List-Unsubscribe=One-Click",
    });
    expect(done.status).toBe(200);
    expect(decodeHtml(await done.text())).toContain("Lead alerts are off.");

    const [settings] = await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId));
    expect(settings).toMatchObject({ frequency: "off", keywords: ["unsubscribe-me"], location: "Boulder", maxLeadPriceCents: 9000 });
    const cats = await db().select().from(leadAlertCategories).where(eq(leadAlertCategories.diggerId, digger.diggerId));
    expect(cats.map((c) => c.categoryId).sort()).toEqual([otherId, subId].sort());
    const [after] = await db().select({ promotional: users.promotionalEmail }).from(users).where(eq(users.id, digger.id));
    expect(after).toEqual(before);
  });

  it("keeps a digger's profile categories when the link turns off alerts never saved, and refuses a forged or promotional token", async () => {
    const digger = await diggerWithProfile(app);
    await db().insert(diggerCategories).values({ diggerId: digger.diggerId, categoryId: otherId });
    const gig = await insertGig(app, clientUser.id, { categoryId: otherId });
    await deliverLeadAlertBatch(app.services, gig.id, [digger.diggerId]);
    const [alert] = await alertsTo(digger);
    const url = new URL(alert!.listUnsubscribeUrl!);
    const visitor = new SessionClient(app);

    const forged = url.search.replace(/token=([^&]+)/, (_, t: string) => `token=${t.slice(0, -2)}xx`);
    expect((await visitor.post(`/unsubscribe${forged}`, {})).status).toBe(400);
    // A promotional link's token does not work as an alerts one (each list signs its own).
    const promotional = url.search.replace("&list=lead-alerts", "");
    expect((await visitor.post(`/unsubscribe${promotional}`, {})).status).toBe(400);
    expect(await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId))).toEqual([]);

    expect((await visitor.post(`${url.pathname}${url.search}`, {})).status).toBe(200);
    const [settings] = await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId));
    expect(settings!.frequency).toBe("off");
    const cats = await db().select().from(leadAlertCategories).where(eq(leadAlertCategories.diggerId, digger.diggerId));
    expect(cats.map((c) => c.categoryId)).toEqual([otherId]);
    expect(await db().select().from(emails).where(eq(emails.toAddress, digger.email))).toHaveLength(1);
  });
});

describe("only gigs with a verified phone (issue 49)", () => {
  /** A gig of a new client with `phone`, verified by them or not, visible now and alerted to nobody yet. */
  async function gigWithPhone(phone: string, verified: boolean, over: Partial<typeof gigs.$inferInsert> = {}) {
    const owner = await signUpAs(app, "consumer", "Vera Verified");
    if (verified) await db().insert(phoneVerifications).values({ userId: owner.id, phone });
    const gig = await insertGig(app, owner.id, { categoryId: parentId, contactPhone: phone, ...over });
    return { owner, gig };
  }

  it("saves the card's choice, shows it again, and offers it only while phone verification is on", async () => {
    const digger = await diggerWithProfile(app);
    expect(decodeHtml(await (await digger.client.get("/account")).text())).toContain(PHONE_TEXTS.alertsVerifiedOnly);
    expect((await saveAlerts(digger.client, { frequency: "instant", verifiedPhoneOnly: "on" }, [parentId])).status).toBe(200);
    const [row] = await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId));
    expect(row!.verifiedPhoneOnly).toBe(true);
    expect(await (await digger.client.get("/account")).text()).toMatch(/<input[^>]*name="verifiedPhoneOnly"[^>]*checked=""/);

    const sms = app.config.sms;
    app.config.sms = null;
    try {
      expect(decodeHtml(await (await digger.client.get("/account")).text())).not.toContain(PHONE_TEXTS.alertsVerifiedOnly);
      // Saved without the box (not offered): the choice stays as it was.
      expect((await saveAlerts(digger.client, { frequency: "daily" }, [parentId])).status).toBe(200);
      const [kept] = await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId));
      expect(kept).toMatchObject({ frequency: "daily", verifiedPhoneOnly: true });
    } finally {
      app.config.sms = sms;
    }
    // Unticked while offered: off.
    expect((await saveAlerts(digger.client, { frequency: "instant" }, [parentId])).status).toBe(200);
    const [off] = await db().select().from(leadAlertSettings).where(eq(leadAlertSettings.diggerId, digger.diggerId));
    expect(off!.verifiedPhoneOnly).toBe(false);
  });

  it("never alerts a digger who asked for it about a gig whose phone is not verified, and alerts them once its client verifies it", async () => {
    const keyword = `tickalert${randomUUID().slice(0, 6)}`;
    const choosy = await diggerWithAlerts({ keywords: [keyword], verifiedPhoneOnly: true });
    const anyPhone = await diggerWithAlerts({ keywords: [keyword] });
    const { owner, gig } = await gigWithPhone("+13035550161", false, { title: `Unverified ${keyword}` });
    const { gig: noPhone } = await gigWithPhone("+13035550162", false, { title: `No phone ${keyword}`, contactPhone: null });
    const { gig: verifiedGig } = await gigWithPhone("+13035550163", true, { title: `Verified ${keyword}` });
    for (const g of [gig, noPhone, verifiedGig]) await fanOutLeadAlerts(app.services, g.id);
    await alertsSettled();
    expect((await alertsTo(choosy)).map((m) => m.subject)).toEqual([`New lead: ${verifiedGig.title}`]);
    expect((await alertsTo(anyPhone)).map((m) => m.subject).sort()).toEqual([gig, noPhone, verifiedGig].map((g) => `New lead: ${g.title}`).sort());
    // A batch checked again before sending leaves them out too (the gig's phone not verified).
    expect(await deliverLeadAlertBatch(app.services, gig.id, [choosy.diggerId])).toBe(0);

    // The client verifies the gig's number by its code (the verification page's path): the
    // gig's alerts run again, and the digger who waited for a verified phone hears of it, once.
    const phone = parsePhone("+13035550161", "US")!;
    await sendPhoneCode(app.services, app.services.logger, { userId: owner.id, emailVerified: true, phone, target: { forAccount: false, gigId: gig.id }, clientIp: "10.9.8.7" });
    const [text] = await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone.e164));
    await checkPhoneCode(app.services, owner.id, /^\d{6}/.exec(text!.body)![0]);
    await alertsSettled();
    expect((await alertsTo(choosy)).map((m) => m.subject).sort()).toEqual([`New lead: ${gig.title}`, `New lead: ${verifiedGig.title}`].sort());
    expect(await alertsTo(anyPhone)).toHaveLength(3);
  });

  it("leaves gigs without a verified phone out of such a digger's daily digest", async () => {
    const keyword = `tickdigest${randomUUID().slice(0, 6)}`;
    const choosy = await diggerWithAlerts({ frequency: "daily", keywords: [keyword], verifiedPhoneOnly: true });
    const anyPhone = await diggerWithAlerts({ frequency: "daily", keywords: [keyword] });
    const made = [
      (await gigWithPhone("+13035550171", true, { title: `Verified ${keyword}` })).gig,
      (await gigWithPhone("+13035550172", false, { title: `Unverified ${keyword}` })).gig,
      (await gigWithPhone("+13035550173", false, { title: `No phone ${keyword}`, contactPhone: null })).gig,
    ];
    for (const g of made) await db().update(gigs).set({ visibleSince: sql`now() - interval '1 hour'` }).where(eq(gigs.id, g.id));
    await sendDailyDigests(app.services);
    const digestOf = async (digger: TestUser) => (await mailTo(app, digger.email)).find((m) => m.subject.startsWith("Your lead alerts"))!.textBody;
    const choosyDigest = await digestOf(choosy);
    expect(choosyDigest).toContain(`Verified ${keyword}`);
    expect(choosyDigest).not.toContain(`Unverified ${keyword}`);
    expect(choosyDigest).not.toContain(`No phone ${keyword}`);
    const full = await digestOf(anyPhone);
    for (const g of made) expect(full).toContain(g.title);
  });
});
