/**
 * The database away: which driver errors mean it (server/db/errors.ts), read off real
 * failures against real sockets, and what visitors get then: the "try again" page as 503
 * with Retry-After, not 500. And the connection lost in the middle of each kind of operation
 * (a loader, an action, a fetcher's load and action, Better Auth's): the same 503, with nothing
 * half-written; no operation wraps the fault into a 500 of its own (issue 31). The fault is
 * injected in this file's own database (a trigger or a view raising SQLSTATE 08006), never by
 * stopping the shared server. (The hard tests stop a real PostgreSQL server under load.)
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { isDatabaseUnavailable } from "../../server/db/errors.ts";
import { diggerReferences, gigs, leadIssues, referenceContactRequests, refunds, twoFactors, users } from "../../server/db/schema.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { brokenServer, refusedDatabaseUrl } from "../support/away-database.ts";
import { validGigForm } from "../support/forms.ts";
import { diggerWithProfile, insertGig, insertPurchase, topLevelCategoryId } from "../support/leads.ts";

async function errorOf(handle: DatabaseHandle): Promise<unknown> {
  try {
    await handle.db.execute(sql`select 1`);
  } catch (error) {
    return error;
  }
  throw new Error("the query answered");
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("isDatabaseUnavailable", () => {
  it("is true for a refused connection, a server that hangs up, and one that never answers", async () => {
    const refused = await openDatabase({ kind: "postgres", url: await refusedDatabaseUrl() });
    const hangUp = await brokenServer("hang-up");
    const silent = await brokenServer("silent");
    const closing = await openDatabase({ kind: "postgres", url: hangUp.url });
    const frozen = await openDatabase({ kind: "postgres", url: silent.url, connectTimeoutMs: 300 });
    try {
      for (const handle of [refused, closing, frozen]) expect(isDatabaseUnavailable(await errorOf(handle))).toBe(true);
    } finally {
      await Promise.all([refused.close(), closing.close(), frozen.close()]);
      hangUp.close();
      silent.close();
    }
  });

  it("is false for a query that fails on a database that answers", async () => {
    const db = app.database.db;
    const syntax = await db.execute(sql`select from nowhere`).then(() => null, (error: unknown) => error);
    expect(syntax).not.toBeNull();
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    const row = { id: randomUUID(), name: "Twice", email: `twice-${randomUUID()}@example.com` };
    await db.insert(users).values(row);
    const duplicate = await db.insert(users).values({ ...row, id: randomUUID() }).then(() => null, (error: unknown) => error);
    expect(duplicate).not.toBeNull();
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(new Error("something else"))).toBe(false);
  });
});

describe("pages while the database is away", () => {
  it("answer 503 with Retry-After and the try-again page, then 200 once it is back", async () => {
    const db = app.services.db;
    const away = await openDatabase({ kind: "postgres", url: await refusedDatabaseUrl() });
    app.services.db = away.db;
    try {
      for (const path of ["/browse-gigs", "/browse-diggers?q=roof", "/browse-gigs.data"]) {
        const response = await app.request(path);
        expect(response.status, path).toBe(503);
        expect(response.headers.get("retry-after"), path).toBe("5");
        // A data request carries the error for the page's error boundary to show.
        if (!path.includes(".data")) expect(await response.text(), path).toContain("Please try again in a moment.");
      }
      // A page that needs no database is not affected.
      expect((await app.request("/how-it-works")).status).toBe(200);
    } finally {
      app.services.db = db;
      await away.close();
    }
    expect((await app.request("/browse-gigs")).status).toBe(200);
  });
});

/** The connection lost, as PostgreSQL reports it (SQLSTATE 08006), raised by the statement that meets it. */
const CONNECTION_FAILURE = sql.raw(`
  CREATE OR REPLACE FUNCTION injected_connection_failure() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION 'injected: connection lost' USING ERRCODE = 'connection_failure'; END; $$`);
const CONNECTION_FAILURE_READ = sql.raw(`
  CREATE OR REPLACE FUNCTION injected_connection_failure_read() RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
  BEGIN RAISE EXCEPTION 'injected: connection lost' USING ERRCODE = 'connection_failure'; END; $$`);

/** Runs `run` while every row written to `table` loses the connection: its transaction must roll back whole. */
async function whileWritingFails<T>(table: string, run: () => Promise<T>): Promise<T> {
  const db = app.database.db;
  await db.execute(CONNECTION_FAILURE);
  await db.execute(sql.raw(`CREATE TRIGGER injected_fault AFTER INSERT OR UPDATE ON "${table}" FOR EACH ROW EXECUTE FUNCTION injected_connection_failure()`));
  try {
    return await run();
  } finally {
    await db.execute(sql.raw(`DROP TRIGGER injected_fault ON "${table}"`));
  }
}

/** Runs `run` while every row read from `table` loses the connection (a view stands in for the table). */
async function whileReadingFails<T>(table: string, run: () => Promise<T>): Promise<T> {
  const db = app.database.db;
  await db.execute(CONNECTION_FAILURE_READ);
  await db.execute(sql.raw(`ALTER TABLE "${table}" RENAME TO "${table}_away"`));
  await db.execute(sql.raw(`CREATE VIEW "${table}" AS SELECT * FROM "${table}_away" WHERE injected_connection_failure_read()`));
  try {
    return await run();
  } finally {
    await db.execute(sql.raw(`DROP VIEW "${table}"`));
    await db.execute(sql.raw(`ALTER TABLE "${table}_away" RENAME TO "${table}"`));
  }
}

function expectUnavailable(response: Response, what: string) {
  expect(response.status, what).toBe(503);
  expect(response.headers.get("retry-after"), what).toBe("5");
}

/** A gig of a new client whose lead a new digger bought. */
async function boughtLead() {
  const owner = await signUpAs(app, "consumer", "Olive Owner");
  const digger = await diggerWithProfile(app);
  const gig = await insertGig(app, owner.id);
  const purchase = await insertPurchase(app, gig, digger.diggerId);
  return { owner, digger, gig, purchaseId: purchase.id };
}

const reportIssue = (lead: Awaited<ReturnType<typeof boughtLead>>) =>
  lead.digger.client.post("/my-leads", { intent: "report-issue", purchaseId: lead.purchaseId, issueType: "already_filled", description: "The client says they already hired someone." });

describe("operations when the connection is lost under them", () => {
  it("posting a gig (an action): 503, and no gig", async () => {
    const client = await signUpAs(app, "consumer");
    const form = validGigForm(await topLevelCategoryId(app));
    const response = await whileWritingFails("gigs", () => client.client.post("/post-gig", form));
    expectUnavailable(response, "post-gig");
    expect(await app.database.db.select().from(gigs).where(eq(gigs.clientId, client.id))).toEqual([]);
  });

  it("asking for a reference's contact (an action): 503, and no request", async () => {
    const digger = await diggerWithProfile(app);
    const [reference] = await app.database.db
      .insert(diggerReferences)
      .values({ diggerId: digger.diggerId, referenceName: "Ann Ref", referenceEmail: `ann-${randomUUID()}@example.com` })
      .returning();
    const client = await signUpAs(app, "consumer");
    // The request is written, then telling the digger meets the fault: the request goes too.
    const response = await whileWritingFails("notifications", () => client.client.post(`/digger/${digger.diggerId}`, { referenceId: reference!.id }));
    expectUnavailable(response, "reference request");
    expect(await app.database.db.select().from(referenceContactRequests).where(eq(referenceContactRequests.clientId, client.id))).toEqual([]);
  });

  it("reporting an issue (a fetcher's action): 503, and no issue", async () => {
    const lead = await boughtLead();
    const response = await whileWritingFails("notifications", () => reportIssue(lead));
    expectUnavailable(response, "report-issue");
    expect(await app.database.db.select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, lead.purchaseId))).toEqual([]);
  });

  it("deciding an issue (a fetcher's action): 503, the issue still pending and no refund", async () => {
    const lead = await boughtLead();
    expect((await reportIssue(lead)).status).toBe(200);
    const [issue] = await app.database.db.select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, lead.purchaseId));
    const response = await whileWritingFails("notifications", () =>
      lead.owner.client.post(`/my-gigs/${lead.gig.id}/issues`, { issueId: issue!.id, decision: "approve" }),
    );
    expectUnavailable(response, "resolve-issue");
    const [after] = await app.database.db.select().from(leadIssues).where(eq(leadIssues.id, issue!.id));
    expect(after!.status).toBe("pending");
    expect(await app.database.db.select().from(refunds).where(eq(refunds.leadIssueId, issue!.id))).toEqual([]);
  });

  it("reading /my-leads (a loader, the page and its data): 503, then served once the connection is back", async () => {
    const lead = await boughtLead();
    await whileReadingFails("lead_purchases", async () => {
      for (const path of ["/my-leads", "/my-leads.data"]) expectUnavailable(await lead.digger.client.get(path), path);
    });
    expect((await lead.digger.client.get("/my-leads")).status).toBe(200);
  });

  it("reading a gig's issues (a fetcher's load): 503, then served once the connection is back", async () => {
    const lead = await boughtLead();
    expect((await reportIssue(lead)).status).toBe(200);
    const path = `/my-gigs/${lead.gig.id}/issues`;
    await whileReadingFails("lead_issues", async () => expectUnavailable(await lead.owner.client.get(path), "gig-issues"));
    expect((await lead.owner.client.get(path)).status).toBe(200);
  });

  it("turning on two-factor (Better Auth's, from /account and its own API): 503, and no second factor", async () => {
    const user = await signUpAs(app, "consumer");
    await whileWritingFails("two_factors", async () => {
      expectUnavailable(await user.client.post("/account", { intent: "enable-two-factor", password: TEST_PASSWORD }), "/account");
      const direct = await user.client.send("/api/auth/two-factor/enable", {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.config.publicUrl },
        body: JSON.stringify({ password: TEST_PASSWORD }),
      });
      expectUnavailable(direct, "/api/auth/two-factor/enable");
    });
    expect(await app.database.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id))).toEqual([]);
    const [row] = await app.database.db.select({ on: users.twoFactorEnabled }).from(users).where(and(eq(users.id, user.id)));
    expect(row!.on).toBe(false);
  });
});
