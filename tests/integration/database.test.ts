import { randomUUID } from "node:crypto";
import { count, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Database } from "../../server/db/client.ts";
import {
  categories,
  diggerProfiles,
  diggerReferences,
  gigs,
  leadIssues,
  leadPurchases,
  referenceContactRequests,
  users,
} from "../../server/db/schema.ts";
import { DEMO_CLIENT, DEMO_DIGGER, DEMO_OPERATOR, seedCategories, seedDemoData } from "../../server/db/seed/index.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCategories(db);
});
afterAll(() => database.destroy());

/** The PostgreSQL error code (SQLSTATE) of a failed statement, wherever the driver puts it. */
async function sqlState(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    let e: unknown = error;
    while (e && typeof e === "object") {
      if ("code" in e && typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
      e = "cause" in e ? e.cause : undefined;
    }
    throw error;
  }
  throw new Error("expected the statement to fail");
}
const CHECK_VIOLATION = "23514";
const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

async function newUser(userType: "consumer" | "digger" = "consumer") {
  const id = randomUUID();
  await db.insert(users).values({ id, name: "Test Person", email: `${id}@example.com`, userType });
  return id;
}
async function anyCategoryId() {
  const [row] = await db.select({ id: categories.id }).from(categories).limit(1);
  return row!.id;
}
const validGig = async (clientId: string) => ({
  clientId,
  title: "Fix a leaking kitchen tap",
  description: "The kitchen tap drips constantly and the washer seems worn out. Need it fixed this week.",
  location: "Austin, TX",
  timeline: "Within a week",
  categoryId: await anyCategoryId(),
});
async function newDigger(handle = `h${randomUUID().slice(0, 8)}`) {
  const userId = await newUser("digger");
  const [row] = await db
    .insert(diggerProfiles)
    .values({ userId, handle, businessName: "Biz", phone: "555", location: "X", profession: "Plumber", bio: "Bio" })
    .returning({ id: diggerProfiles.id });
  return row!.id;
}

describe("migrations", () => {
  it("create every table of the product and the pg_trgm extension", async () => {
    const rows = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const tables = rows.map((r) => r.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "users", "sessions", "accounts", "verifications", "two_factors", "categories", "digger_profiles",
        "digger_categories", "digger_references", "reference_contact_requests", "gigs", "lead_purchases", "lead_issues",
      ]),
    );
    const ext = await queryRows(db, sql`select 1 from pg_extension where extname = 'pg_trgm'`);
    expect(ext).toHaveLength(1);
  });

  it("are idempotent: running them again changes nothing", async () => {
    await expect(database.migrate()).resolves.toBeUndefined();
  });
});

describe("constraints", () => {
  it("keep gig titles, descriptions, budgets and status within the spec's limits", async () => {
    const clientId = await newUser();
    const gig = await validGig(clientId);
    await expect(db.insert(gigs).values(gig).returning()).resolves.toHaveLength(1);
    expect(await sqlState(db.insert(gigs).values({ ...gig, title: "   short   " }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(db.insert(gigs).values({ ...gig, description: "too short" }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(db.insert(gigs).values({ ...gig, budgetMinCents: -1 }))).toBe(CHECK_VIOLATION);
    expect(
      await sqlState(db.insert(gigs).values({ ...gig, budgetMinCents: 500_000, budgetMaxCents: 100_000 })),
    ).toBe(CHECK_VIOLATION);
    expect(
      await sqlState(db.execute(sql`update gigs set status = 'archived' where consumer_id = ${clientId}`)),
    ).toBe(CHECK_VIOLATION);
    expect(await sqlState(db.insert(gigs).values({ ...gig, categoryId: randomUUID() }))).toBe(FOREIGN_KEY_VIOLATION);
  });

  it("make e-mail addresses unique regardless of case", async () => {
    const id = await newUser();
    const [user] = await db.select().from(users).where(eq(users.id, id));
    expect(
      await sqlState(db.insert(users).values({ id: randomUUID(), name: "Twin", email: user!.email.toUpperCase() })),
    ).toBe(UNIQUE_VIOLATION);
  });

  it("make digger handles unique and normalised, and one profile per user", async () => {
    await newDigger("unique_handle");
    expect(await sqlState(newDigger("unique_handle"))).toBe(UNIQUE_VIOLATION);
    expect(await sqlState(newDigger("Not Normalised"))).toBe(CHECK_VIOLATION);
    expect(await sqlState(newDigger("a".repeat(31)))).toBe(CHECK_VIOLATION);
    const userId = await newUser("digger");
    const profile = { userId, businessName: "B", phone: "1", location: "L", profession: "P", bio: "B" };
    await db.insert(diggerProfiles).values({ ...profile, handle: `one_${userId.slice(0, 8)}` });
    expect(await sqlState(db.insert(diggerProfiles).values({ ...profile, handle: `two_${userId.slice(0, 8)}` }))).toBe(
      UNIQUE_VIOLATION,
    );
  });

  it("keep digger licence values, rates and ratings valid", async () => {
    const diggerId = await newDigger();
    const update = (set: Partial<typeof diggerProfiles.$inferInsert>) =>
      db.update(diggerProfiles).set(set).where(eq(diggerProfiles.id, diggerId));
    expect(await sqlState(update({ isLicensed: "maybe" as "yes" }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(update({ hourlyRateMinCents: 9000, hourlyRateMaxCents: 5000 }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(update({ averageRating: 5.5 }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(update({ workPhotos: Array.from({ length: 13 }, (_, i) => `/p/${i}.webp`) }))).toBe(
      CHECK_VIOLATION,
    );
    await expect(update({ isLicensed: "yes", hourlyRateMinCents: 5000, hourlyRateMaxCents: 9000 })).resolves.toBeDefined();
  });

  it("allow one completed purchase per gig and digger, but retried pending checkouts", async () => {
    const [gig] = await db.insert(gigs).values(await validGig(await newUser())).returning({ id: gigs.id });
    const diggerId = await newDigger();
    const purchase = { gigId: gig!.id, diggerId, amountPaidCents: 5000, provider: "test" as const };
    await db.insert(leadPurchases).values([purchase, purchase]);
    await db.insert(leadPurchases).values({ ...purchase, status: "completed", purchasedAt: new Date() });
    expect(
      await sqlState(db.insert(leadPurchases).values({ ...purchase, status: "completed", purchasedAt: new Date() })),
    ).toBe(UNIQUE_VIOLATION);
    expect(await sqlState(db.insert(leadPurchases).values({ ...purchase, status: "completed" }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(db.insert(leadPurchases).values({ ...purchase, amountPaidCents: 0 }))).toBe(CHECK_VIOLATION);
  });

  it("allow one issue per purchase with a known type and a refund percentage of 0 to 100", async () => {
    const [gig] = await db.insert(gigs).values(await validGig(await newUser())).returning({ id: gigs.id });
    const diggerId = await newDigger();
    const [purchase] = await db
      .insert(leadPurchases)
      .values({
        gigId: gig!.id, diggerId, amountPaidCents: 5000, provider: "test", status: "completed", purchasedAt: new Date(),
      })
      .returning({ id: leadPurchases.id });
    const issue = {
      leadPurchaseId: purchase!.id, diggerId, issueType: "already_filled" as const, description: "Filled", refundPercentage: 50,
    };
    expect(await sqlState(db.insert(leadIssues).values({ ...issue, issueType: "bored" as "mistake" }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(db.insert(leadIssues).values({ ...issue, refundPercentage: 150 }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(db.insert(leadIssues).values({ ...issue, description: "   " }))).toBe(CHECK_VIOLATION);
    await db.insert(leadIssues).values(issue);
    expect(await sqlState(db.insert(leadIssues).values(issue))).toBe(UNIQUE_VIOLATION);
    expect(
      await sqlState(db.update(leadIssues).set({ status: "approved" }).where(eq(leadIssues.leadPurchaseId, purchase!.id))),
    ).toBe(CHECK_VIOLATION);
  });

  it("allow one reference contact request per consumer and reference", async () => {
    const diggerId = await newDigger();
    const [reference] = await db
      .insert(diggerReferences)
      .values({ diggerId, referenceName: "Ref", referenceEmail: "ref@example.com" })
      .returning({ id: diggerReferences.id });
    const request = { referenceId: reference!.id, clientId: await newUser(), diggerId };
    await db.insert(referenceContactRequests).values(request);
    expect(await sqlState(db.insert(referenceContactRequests).values(request))).toBe(UNIQUE_VIOLATION);
    expect(
      await sqlState(db.insert(referenceContactRequests).values({ ...request, clientId: await newUser(), status: "maybe" as "pending" })),
    ).toBe(CHECK_VIOLATION);
  });
});

describe("seed", () => {
  it("loads a two-level category taxonomy, idempotently", async () => {
    const before = await db.select({ n: count() }).from(categories);
    await seedCategories(db);
    const after = await db.select({ n: count() }).from(categories);
    expect(after[0]!.n).toBe(before[0]!.n);
    const top = await db.select().from(categories).where(isNull(categories.parentCategoryId));
    expect(top.length).toBeGreaterThanOrEqual(10);
    const children = await queryRows<{ n: number }>(
        db,
      sql`select count(*)::int as n from categories c join categories p on p.id = c.parent_category_id where p.parent_category_id is null`,
    );
    expect(children[0]!.n).toBeGreaterThanOrEqual(top.length * 3);
  });
});

describe("demo data", () => {
  it("fills an empty database with demo accounts, about 20 diggers and 50 open gigs, only once", async () => {
    const fresh = await createTestDatabase();
    try {
      await seedCategories(fresh.db);
      expect(await seedDemoData(fresh.db)).toBe(true);
      expect(await seedDemoData(fresh.db)).toBe(false);
      const [diggers] = await fresh.db.select({ n: count() }).from(diggerProfiles);
      const [openGigs] = await fresh.db.select({ n: count() }).from(gigs).where(eq(gigs.status, "open"));
      expect(diggers!.n).toBe(20);
      expect(openGigs!.n).toBe(50);
      const demo = await queryRows<{ email: string; user_type: string; provider_id: string }>(
        fresh.db,
        sql`select u.email, u.user_type, a.provider_id from users u join accounts a on a.user_id = u.id order by u.email`,
      );
      expect(demo).toEqual([
        { email: DEMO_CLIENT.email, user_type: "consumer", provider_id: "credential" },
        { email: DEMO_DIGGER.email, user_type: "digger", provider_id: "credential" },
        { email: DEMO_OPERATOR.email, user_type: "consumer", provider_id: "credential" },
      ]);
      // The demo operator (issue 22) is the only operator.
      const operators = await queryRows<{ email: string }>(fresh.db, sql`select email from users where operator_since is not null`);
      expect(operators).toEqual([{ email: DEMO_OPERATOR.email }]);
      const spread = await queryRows<{ n: number }>(
        fresh.db,
        sql`select count(distinct coalesce(p.id, c.id))::int as n from gigs g join categories c on c.id = g.category_id left join categories p on p.id = c.parent_category_id`,
      );
      expect(spread[0]!.n).toBeGreaterThanOrEqual(10);
      // The reply guarantee (issue 48): every seeded thread the digger answered was opened by its
      // client, so no check ever refunds a demo lead; and some clients replied, so the demo's
      // client records say so (read by the database's own counts).
      const unopened = await queryRows<{ n: number }>(
        fresh.db,
        sql`select count(*)::int as n from lead_purchases p join threads t on t.purchase_id = p.id where p.guarantee_due_at is not null and t.client_opened_at is null`,
      );
      expect(unopened[0]!.n).toBe(0);
      const replied = await queryRows<{ n: number }>(fresh.db, sql`select coalesce(sum(replied), 0)::int as n from client_reply_months`);
      expect(replied[0]!.n).toBeGreaterThan(0);
      // Verified phones (issue 49): the demo shows both ticks and gigs without a phone.
      const phones = await queryRows<{ verified: number; unverified: number; none: number }>(
        fresh.db,
        sql`select count(*) filter (where phone_verified_at is not null)::int as verified,
                   count(*) filter (where contact_phone is not null and phone_verified_at is null)::int as unverified,
                   count(*) filter (where contact_phone is null)::int as none
            from gigs where status = 'open'`,
      );
      expect(phones[0]!.verified).toBeGreaterThan(0);
      expect(phones[0]!.unverified).toBeGreaterThan(0);
      expect(phones[0]!.none).toBeGreaterThan(0);
      // Site visits (issue 50): the demo digger and client each have one to come; the digger's
      // three past ones, marked 'Visited', make their 'Kept 3 of 3 visits' (the database's count).
      const visits = await queryRows<{ email: string; upcoming: number; kept: number | null; counted: number | null }>(
        fresh.db,
        sql`select u.email,
                   (select count(*)::int from visits v where (v.digger_user_id = u.id or v.client_id = u.id) and v.status = 'booked' and v.starts_at > now()) as upcoming,
                   r.kept, r.counted
            from users u left join visit_records r on r.user_id = u.id and r.role = case when u.user_type = 'digger' then 'digger' else 'client' end
            where u.email in (${DEMO_CLIENT.email}, ${DEMO_DIGGER.email}) order by u.email`,
      );
      expect(visits).toMatchObject([
        { email: DEMO_CLIENT.email, upcoming: 1 },
        { email: DEMO_DIGGER.email, upcoming: 1, kept: 3, counted: 3 },
      ]);
    } finally {
      await fresh.destroy();
    }
  });
});
