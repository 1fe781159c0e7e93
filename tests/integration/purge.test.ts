/**
 * The purge of deleted accounts (issue 8): nothing before the delay; after it, personal data
 * removed or anonymised, payment records whole (same purchases, issues, refunds and amounts),
 * and a digger who bought a deleted client's lead sees only the anonymised client. It is
 * idempotent and safe to run concurrently (two runs at once on PostgreSQL purge each account
 * exactly once); the server runs it as a job, and `npm run jobs:purge` runs it once.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "../../server/db/client.ts";
import {
  accounts,
  diggerCategories,
  diggerProfiles,
  diggerReferences,
  emails,
  gigs,
  leadIssues,
  leadPurchases,
  phoneCodes,
  phoneVerifications,
  referenceContactRequests,
  refunds,
  sessions,
  users,
  categories,
} from "../../server/db/schema.ts";
import { SCHEDULES } from "../../server/jobs/queue.ts";
import { listMyLeads } from "../../server/leads/my-leads.ts";
import { requestAccountDeletion } from "../../server/privacy/deletion.ts";
import { ANONYMISED, purgeDeletedAccounts, type PurgeServices } from "../../server/privacy/purge.ts";
import type { Storage } from "../../server/storage/storage.ts";
import { signUpAs } from "../support/accounts.ts";
import { paragraph } from "../../server/mail/content.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { diggerWithProfile, insertGig, insertPurchase } from "../support/leads.ts";

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, "../..");
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const db = () => app.database.db;

/** Uploads kept in memory, so the purge's file deletions can be watched. */
function memoryStorage(keys: string[] = []) {
  const files = new Set(keys);
  const storage: Storage = {
    put: (key) => Promise.resolve(void files.add(key)),
    get: (key) => Promise.resolve(files.has(key) ? { data: Buffer.alloc(0), contentType: "image/jpeg" } : null),
    delete: (key) => Promise.resolve(void files.delete(key)),
  };
  return { storage, files };
}

function purgeServices(storage: Storage, delayHours = app.config.accountPurgeDelayHours): PurgeServices {
  return { ...app.services, storage, config: { accountPurgeDelayHours: delayHours } };
}

/** Moves a deletion request back in time by `hours`. */
const requestedHoursAgo = (userIds: string[], hours: number) =>
  db()
    .update(users)
    .set({ deletedAt: sql`now() - make_interval(secs => ${hours * 3600})` })
    .where(inArray(users.id, userIds));

/** Every payment record, in a stable order, to compare before and after. */
async function paymentRecords() {
  return {
    purchases: await db().select().from(leadPurchases).orderBy(asc(leadPurchases.id)),
    issues: await db()
      .select({ id: leadIssues.id, purchase: leadIssues.leadPurchaseId, type: leadIssues.issueType, pct: leadIssues.refundPercentage, status: leadIssues.status })
      .from(leadIssues)
      .orderBy(asc(leadIssues.id)),
    refunds: await db().select().from(refunds).orderBy(asc(refunds.id)),
  };
}

/**
 * A client and a digger who both delete their accounts, around a gig that two diggers paid
 * for (one of them the leaving digger, with an approved, refunded issue), plus a gig nobody
 * bought, a reference request, e-mail and photos.
 */
async function scenario() {
  const client = await signUpAs(app, "consumer", "Carla Client");
  const buyer = await diggerWithProfile(app);
  const leaving = await diggerWithProfile(app);
  const boughtGig = await insertGig(app, client.id, { budgetMinCents: 2_000_000, budgetMaxCents: 3_000_000 });
  const unboughtGig = await insertGig(app, client.id);
  await insertPurchase(app, boughtGig, buyer.diggerId);
  const leavingPurchase = await insertPurchase(app, boughtGig, leaving.diggerId);
  await db().update(gigs).set({ purchaseCount: 2 }).where(eq(gigs.id, boughtGig.id));
  const [issue] = await db()
    .insert(leadIssues)
    .values({
      leadPurchaseId: leavingPurchase.id,
      diggerId: leaving.diggerId,
      issueType: "already_filled",
      description: "Call me on 555-0199 about this, Larry.",
      refundPercentage: 50,
      status: "approved",
      resolvedAt: new Date(),
    })
    .returning();
  await db().insert(refunds).values({
    leadPurchaseId: leavingPurchase.id,
    leadIssueId: issue!.id,
    reason: "issue_approved",
    amountCents: leavingPurchase.amountPaidCents / 2,
    status: "succeeded",
    providerRefundId: `re_${randomUUID()}`,
    completedAt: new Date(),
  });
  const [category] = await db().select({ id: categories.id }).from(categories).limit(1);
  await db().insert(diggerCategories).values({ diggerId: leaving.diggerId, categoryId: category!.id });
  const [reference] = await db()
    .insert(diggerReferences)
    .values({ diggerId: leaving.diggerId, referenceName: "Rick Reference", referenceEmail: "rick@example.com" })
    .returning();
  await db().insert(referenceContactRequests).values({ referenceId: reference!.id, clientId: client.id, diggerId: leaving.diggerId });
  const photo = `/uploads/diggers/${randomUUID()}.jpg`;
  const sharedPhoto = `/uploads/diggers/${randomUUID()}.jpg`;
  await db()
    .update(diggerProfiles)
    .set({ profileImageUrl: photo, workPhotos: [sharedPhoto], portfolioUrl: "https://larry.example.com" })
    .where(eq(diggerProfiles.id, leaving.diggerId));
  await db().update(diggerProfiles).set({ workPhotos: [sharedPhoto] }).where(eq(diggerProfiles.id, buyer.diggerId));
  await app.mailer.send({ to: client.email, userId: client.id, kind: "promotional", subject: "News", content: [paragraph("News for Carla.")] });

  await requestAccountDeletion(db(), client.id);
  await requestAccountDeletion(db(), leaving.id);
  const { storage, files } = memoryStorage([photo, sharedPhoto].map((u) => u.slice("/uploads/".length)));
  return { client, buyer, leaving, boughtGig, unboughtGig, leavingPurchase, issue: issue!, photo, sharedPhoto, storage, files };
}

describe("the purge", () => {
  it("waits for the configured delay, then removes or anonymises the personal data, keeping payment records whole", async () => {
    const s = await scenario();
    const paymentsBefore = await paymentRecords();
    const services = purgeServices(s.storage, 720);

    expect(await purgeDeletedAccounts(services)).toBe(0);
    await requestedHoursAgo([s.client.id, s.leaving.id], 719);
    expect(await purgeDeletedAccounts(services)).toBe(0);
    expect((await db().select().from(users).where(eq(users.id, s.client.id)))[0]).toMatchObject({ name: "Carla Client", purgedAt: null });

    await requestedHoursAgo([s.client.id, s.leaving.id], 721);
    expect(await purgeDeletedAccounts(services)).toBe(2);

    // The client: anonymised (a paid-for gig still points at the account).
    const [client] = await db().select().from(users).where(eq(users.id, s.client.id));
    expect(client).toMatchObject({ name: ANONYMISED.userName, email: `deleted-${s.client.id.toLowerCase()}@invalid`, image: null, promotionalEmail: false });
    expect(client!.purgedAt).toBeInstanceOf(Date);
    for (const table of [sessions, accounts]) expect(await db().select().from(table).where(eq(table.userId, s.client.id))).toHaveLength(0);
    expect(await db().select().from(emails).where(eq(emails.userId, s.client.id))).toHaveLength(0);
    expect(await db().select().from(emails).where(eq(emails.toAddress, s.client.email))).toHaveLength(0);
    expect(await db().select().from(referenceContactRequests).where(eq(referenceContactRequests.clientId, s.client.id))).toHaveLength(0);
    expect(await db().select().from(gigs).where(eq(gigs.id, s.unboughtGig.id))).toHaveLength(0);
    const [gig] = await db().select().from(gigs).where(eq(gigs.id, s.boughtGig.id));
    expect(gig).toMatchObject({
      title: ANONYMISED.gigTitle,
      description: ANONYMISED.gigDescription,
      location: ANONYMISED.removed,
      timeline: ANONYMISED.removed,
      contactPreferences: null,
      contactPhone: null,
      status: "closed",
      budgetMinCents: 2_000_000,
      purchaseCount: 2,
    });

    // The leaving digger: profile anonymised (purchases point at it), references and categories gone.
    const [profile] = await db().select().from(diggerProfiles).where(eq(diggerProfiles.id, s.leaving.diggerId));
    expect(profile).toMatchObject({
      handle: expect.stringMatching(/^deleted_[a-z0-9]{22}$/),
      businessName: ANONYMISED.businessName,
      phone: "",
      location: "",
      bio: "",
      profileImageUrl: null,
      portfolioUrl: null,
      workPhotos: [],
    });
    expect(profile!.hiddenAt).toBeInstanceOf(Date);
    expect(await db().select().from(diggerReferences).where(eq(diggerReferences.diggerId, s.leaving.diggerId))).toHaveLength(0);
    expect(await db().select().from(diggerCategories).where(eq(diggerCategories.diggerId, s.leaving.diggerId))).toHaveLength(0);
    expect((await db().select().from(leadIssues).where(eq(leadIssues.id, s.issue.id)))[0]!.description).toBe(ANONYMISED.issueDescription);
    expect((await db().select().from(users).where(eq(users.id, s.leaving.id)))[0]).toMatchObject({ name: ANONYMISED.userName });
    // Its own photo is gone; the one another profile also shows stays.
    expect([...s.files]).toEqual([s.sharedPhoto.slice("/uploads/".length)]);

    // Payment records: the same rows, amounts, statuses and refunds.
    expect(await paymentRecords()).toEqual(paymentsBefore);

    // The digger who bought the lead sees the anonymised client only.
    const leads = await listMyLeads(db(), s.buyer.diggerId, null);
    expect(leads.items).toHaveLength(1);
    expect(leads.items[0]!.client).toEqual({ name: ANONYMISED.userName, email: `deleted-${s.client.id.toLowerCase()}@invalid`, deleted: true });
    expect(JSON.stringify(leads.items[0])).not.toMatch(/Carla|Call after 6pm|cedar/);
  });

  it("removes the account's phones at the latest (issue 49): its number, its verifications and its waiting code, on an anonymised account", async () => {
    const client = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id);
    await insertPurchase(app, gig, digger.diggerId);
    await requestAccountDeletion(db(), client.id);
    // Written after the request (an account deleted before issue 49's request removed them, or a late write).
    await db().update(users).set({ phone: "+13035550166" }).where(eq(users.id, client.id));
    await db().insert(phoneVerifications).values({ userId: client.id, phone: "+13035550166" });
    await db()
      .insert(phoneCodes)
      .values({ userId: client.id, phone: "+13035550166", codeHash: "x".repeat(64), expiresAt: new Date(Date.now() + 600_000), providerMessageId: "msg-1" });
    expect(await purgeDeletedAccounts(purgeServices(memoryStorage().storage, 0))).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(users).where(eq(users.id, client.id));
    expect(row).toMatchObject({ name: ANONYMISED.userName, phone: null });
    expect(await db().select().from(phoneVerifications).where(eq(phoneVerifications.userId, client.id))).toEqual([]);
    expect(await db().select().from(phoneCodes).where(eq(phoneCodes.userId, client.id))).toEqual([]);
  });

  it("deletes an account outright when no payment record points at it", async () => {
    const clientUser = await signUpAs(app, "consumer");
    const gig = await insertGig(app, clientUser.id);
    const digger = await diggerWithProfile(app);
    await requestAccountDeletion(db(), clientUser.id);
    await requestAccountDeletion(db(), digger.id);
    expect(await purgeDeletedAccounts(purgeServices(memoryStorage().storage, 0))).toBe(2);
    expect(await db().select().from(users).where(inArray(users.id, [clientUser.id, digger.id]))).toHaveLength(0);
    expect(await db().select().from(gigs).where(eq(gigs.id, gig.id))).toHaveLength(0);
    expect(await db().select().from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId))).toHaveLength(0);
  });

  it("is idempotent: a second run finds nothing to do and changes nothing", async () => {
    const s = await scenario();
    const services = purgeServices(s.storage, 0);
    await purgeDeletedAccounts(services);
    const snapshot = async () => ({
      users: await db().select().from(users).orderBy(asc(users.id)),
      gigs: await db().select().from(gigs).orderBy(asc(gigs.id)),
      profiles: await db().select().from(diggerProfiles).orderBy(asc(diggerProfiles.id)),
      issues: await db().select().from(leadIssues).orderBy(asc(leadIssues.id)),
      payments: await paymentRecords(),
    });
    const after = await snapshot();
    expect(await purgeDeletedAccounts(services)).toBe(0);
    expect(await snapshot()).toEqual(after);
  });

  it(`is safe to run twice at once (${onPostgres ? "PostgreSQL: two connections" : "PGlite: one connection, so the runs interleave"})`, async () => {
    const scenarios = await Promise.all([scenario(), scenario(), scenario()]);
    const extra = await Promise.all([signUpAs(app, "consumer"), signUpAs(app, "consumer")]);
    for (const user of extra) await requestAccountDeletion(db(), user.id);
    const expected = (
      await db()
        .select({ id: users.id })
        .from(users)
        .where(sql`${users.deletedAt} is not null and ${users.purgedAt} is null`)
    ).length;
    expect(expected).toBeGreaterThanOrEqual(scenarios.length * 2 + extra.length);
    const paymentsBefore = await paymentRecords();
    const logsBefore = app.logs.filter((l) => l.msg === "account purged").length;

    const services = purgeServices(memoryStorage().storage, 0);
    const [first, second] = await Promise.all([purgeDeletedAccounts(services), purgeDeletedAccounts(services)]);

    expect(first + second).toBe(expected);
    expect(app.logs.filter((l) => l.msg === "account purged").length - logsBefore).toBe(expected);
    expect(await db().select().from(users).where(sql`${users.deletedAt} is not null and ${users.purgedAt} is null`)).toHaveLength(0);
    expect(await purgeDeletedAccounts(services)).toBe(0);
    expect(await paymentRecords()).toEqual(paymentsBefore);
    for (const s of scenarios) {
      const [client] = await db().select().from(users).where(eq(users.id, s.client.id));
      expect(client!.email).toBe(`deleted-${s.client.id.toLowerCase()}@invalid`);
    }
    expect(await db().select().from(users).where(inArray(users.id, extra.map((u) => u.id)))).toHaveLength(0);
  });
});

describe("running the purge", () => {
  it("runs as a job of the queue, scheduled hourly across all servers", async () => {
    const purging = await createTestApp({ ACCOUNT_PURGE_DELAY_HOURS: "0" });
    try {
      const [schedule] = await queryRows<{ cron: string }>(purging.database.db, sql`select cron from pgboss.schedule where name = 'accounts.purge'`);
      expect(schedule?.cron).toBe(SCHEDULES["accounts.purge"]);
      const user = await signUpAs(purging, "consumer");
      await requestAccountDeletion(purging.database.db, user.id);
      // What the scheduler sends at the top of its slot.
      await purging.services.jobs.send("accounts.purge", {});
      await expect
        .poll(async () => (await purging.database.db.select().from(users).where(eq(users.id, user.id))).length, { timeout: 10_000, interval: 100 })
        .toBe(0);
    } finally {
      await purging.close();
    }
  });

  it("runs once from the command line (npm run jobs:purge)", { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-purge-"));
    try {
      // Its own database: the PostgreSQL test server's, or an embedded one in a temporary folder.
      const target = onPostgres ? { kind: "postgres" as const, url: app.database.url! } : { kind: "pglite" as const, dataDir: path.join(dataDir, "pglite") };
      const userId = `cli-${randomUUID()}`;
      if (!onPostgres) {
        const handle = await openDatabase(target);
        await handle.migrate();
        await handle.db.insert(users).values({ id: userId, name: "Cli User", email: `${userId}@example.com`, deletedAt: new Date() });
        await handle.close();
      } else {
        await db().insert(users).values({ id: userId, name: "Cli User", email: `${userId}@example.com`, deletedAt: new Date() });
      }
      const { stderr } = await run("npm", ["run", "--silent", "jobs:purge"], {
        cwd: projectRoot,
        env: {
          ...process.env,
          NODE_ENV: "test",
          LOG_LEVEL: "silent",
          DATA_DIR: dataDir,
          DATABASE_URL: onPostgres ? app.database.url : "",
          ACCOUNT_PURGE_DELAY_HOURS: "0",
        },
      });
      expect(stderr.replace(/npm warn.*\n?/gi, "")).toBe("");
      const handle = onPostgres ? null : await openDatabase(target);
      const check = handle ? handle.db : db();
      expect(await check.select().from(users).where(eq(users.id, userId))).toHaveLength(0);
      await handle?.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
