/**
 * The hold attack (issue 30, finding 1; issue 45, finding 2), replayed at scale against the
 * built server as a process in production mode with the test checkout, on a fresh PostgreSQL
 * database (on TEST_DATABASE_URL's server, else the local one at 127.0.0.1:5432; dropped at the end).
 *
 * Free digger accounts, all new and all from one network (127.0.1.0/24, each its own address):
 * 20 that never confirmed their e-mail and 5 that did, nothing paid, send intent=purchase to
 * every gig at once; their holds run out and they try again (the renewal the attack used); a day
 * later they try once more. Throughout, the unconfirmed hold nothing, the network's new accounts
 * hold at most MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK checkouts together and each at most
 * MAX_LIVE_HOLDS, lapsed accounts wait, Browse Gigs lists every gig, honest new diggers on
 * another network (127.0.2.0/24) buy wherever a spot is free, and no lead is sold past its cap
 * (decision 0030).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONFIRM_EMAIL_TO_BUY,
  HOLD_MINUTES,
  LAPSE_WAIT_HOURS,
  MAX_LIVE_HOLDS,
  MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK,
  NETWORK_HOLDS_FULL,
  SPOTS_HELD,
} from "../../core/lead-spots.ts";
import { gigs, leadPurchases, users } from "../../server/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import type { HttpResponse } from "../support/http-user.ts";
import { insertGig } from "../support/leads.ts";
import { startProductionServer, type ProductionServer } from "../support/production-server.ts";
import { buyLead, diggerOverHttp, errorLogLines, signUpOverHttp, type Digger } from "./helpers.ts";

const UNCONFIRMED = 20;
const CONFIRMED = 5;
const ATTACKERS = UNCONFIRMED + CONFIRMED;
const HONEST = 5;
/** The attackers' network (loopbackAddress 1 to 249); the honest diggers' addresses are in the next /24. */
const ATTACKERS_NETWORK = "127.0.1.0/24";
const HONEST_FROM = 250;
const GIGS = 30;
const LAPSED = "You started several checkouts without paying.";
const MARKER = `holdreplay${Date.now().toString(36)}`;

let database: TestDatabase;
let server: ProductionServer;
const gigIds: string[] = [];
const attackers: Digger[] = [];
const honest: Digger[] = [];

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  database = await createTestDatabase({ serverUrl, prefix: "dg_hard_holds" });
  server = await startProductionServer({ databaseUrl: database.url! });
  const client = await signUpOverHttp(server.url, database.db, 0, "consumer");
  for (let i = 0; i < GIGS; i += 1) {
    // Each gig its own word in the title, so that one search finds exactly it.
    const gig = await insertGig({ database }, client.id, { title: `Fix a gate ${MARKER}g${i}x`, maxDiggers: 2 + (i % 2) });
    gigIds.push(gig.id);
  }
  for (let n = 0; n < ATTACKERS; n += 1) {
    const attacker = await diggerOverHttp(server.url, { database }, 1 + n);
    // As the attack ran: new accounts, the first UNCONFIRMED never confirmed their e-mail.
    await database.db
      .update(users)
      .set({ emailVerified: n >= UNCONFIRMED, createdAt: sql`now()` })
      .where(eq(users.id, attacker.id));
    attackers.push(attacker);
  }
  for (let n = 0; n < HONEST; n += 1) {
    const digger = await diggerOverHttp(server.url, { database }, HONEST_FROM + n);
    // New accounts too, on their own network: the attackers' count is not theirs.
    await database.db.update(users).set({ createdAt: sql`now()` }).where(eq(users.id, digger.id));
    honest.push(digger);
  }
}, 300_000);

const unconfirmed = (attacker: number) => attacker < UNCONFIRMED;

/** Live holds started from the attackers' network. */
async function networkHolds(): Promise<number> {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(leadPurchases)
    .where(sql`${leadPurchases.network} = ${ATTACKERS_NETWORK} and ${leadPurchases.status} = 'pending' and ${leadPurchases.createdAt} > now() - make_interval(mins => ${HOLD_MINUTES})`);
  return row!.n;
}

/** What every round's answers and holds must be: the unconfirmed refused, the rest within every limit. */
async function expectBounded(answers: Array<{ attacker: number; response: HttpResponse }>) {
  for (const { attacker, response } of answers) {
    if (unconfirmed(attacker)) {
      expect(response.status).toBe(403);
      expect(response.body).toContain(CONFIRM_EMAIL_TO_BUY);
    } else expect([302, 409], response.body.slice(0, 200)).toContain(response.status);
  }
  const holds = await liveHoldsByAttacker();
  for (const n of holds) expect(n).toBeLessThanOrEqual(MAX_LIVE_HOLDS);
  expect(holds.slice(0, UNCONFIRMED).every((n) => n === 0)).toBe(true);
  expect(await networkHolds()).toBeLessThanOrEqual(MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK);
}

afterAll(async () => {
  for (const digger of [...attackers, ...honest]) digger.http.close();
  await server?.stop();
  await database?.destroy();
});

/** Every attacker sends Buy to every gig, all attackers at once (each its gigs in turn, as a script would). */
async function attack(): Promise<Array<{ attacker: number; response: HttpResponse }>> {
  const answers = await Promise.all(
    attackers.map(async (attacker, n) => {
      const mine = [];
      for (const gigId of gigIds) mine.push({ attacker: n, response: await attacker.http.post(`/gig/${gigId}`, { intent: "purchase" }) });
      return mine;
    }),
  );
  return answers.flat();
}

/** Live holds of each attacker. */
async function liveHoldsByAttacker(): Promise<number[]> {
  const rows = await database.db
    .select({ diggerId: leadPurchases.diggerId, n: sql<number>`count(*)::int` })
    .from(leadPurchases)
    .where(sql`${leadPurchases.status} = 'pending' and ${leadPurchases.createdAt} > now() - make_interval(mins => ${HOLD_MINUTES})`)
    .groupBy(leadPurchases.diggerId);
  return attackers.map((a) => rows.find((r) => r.diggerId === a.diggerId)?.n ?? 0);
}

/** Every gig on Browse Gigs, each found by its own word, but those full of completed purchases. */
async function expectAllListed() {
  const full = await database.db
    .select({ id: gigs.id })
    .from(gigs)
    .where(sql`${gigs.purchaseCount} >= ${gigs.maxDiggers}`);
  const visitor = honest[0]!.http;
  const wrong = [];
  for (let i = 0; i < GIGS; i += 1) {
    const page = await visitor.get(`/browse-gigs?q=${MARKER}g${i}x`);
    expect(page.status).toBe(200);
    if (page.body.includes(`/gig/${gigIds[i]}`) === full.some((f) => f.id === gigIds[i])) wrong.push(i);
  }
  expect(wrong).toEqual([]);
  expect(full.length).toBeLessThan(GIGS);
}

/** The gig's id, qualified: a one-table select renders its columns unqualified, which a subquery on lead_purchases would read as its own. */
const gigIdColumn = sql.raw('"gigs"."id"');

/** The gigs where a spot is neither bought nor held, and those whose every spot left is held. */
async function spots() {
  const rows = await database.db
    .select({
      id: gigs.id,
      free: sql<number>`${gigs.maxDiggers} - ${gigs.purchaseCount} - (select count(*)::int from ${leadPurchases} where ${leadPurchases.gigId} = ${gigIdColumn} and ${leadPurchases.status} = 'pending' and ${leadPurchases.createdAt} > now() - make_interval(mins => ${HOLD_MINUTES}))`,
      full: sql<boolean>`${gigs.purchaseCount} >= ${gigs.maxDiggers}`,
    })
    .from(gigs)
    .where(inArray(gigs.id, gigIds));
  return { free: rows.filter((r) => r.free > 0 && !r.full).map((r) => r.id), held: rows.filter((r) => r.free <= 0 && !r.full).map((r) => r.id) };
}

/** Each honest digger buys a lead they do not have yet where a spot is free, through the whole checkout. */
async function honestDiggersBuy() {
  for (const digger of honest) {
    const mine = await database.db
      .select({ gigId: leadPurchases.gigId })
      .from(leadPurchases)
      .where(sql`${leadPurchases.diggerId} = ${digger.diggerId} and ${leadPurchases.status} = 'completed'`);
    const gigId = (await spots()).free.find((id) => !mine.some((m) => m.gigId === id));
    expect(gigId).toBeDefined();
    const attempt = await buyLead(digger, gigId!);
    const said = attempt.responses.at(-1)?.body.match(/This lead is full|Someone is checking out[^<]*|Finish or cancel[^<]*|You started several[^<]*|You have already[^<]*/)?.[0];
    expect(attempt.completed, `${gigId}: ${JSON.stringify(attempt.responses.map((r) => [r.step, r.status]))} ${said}`).toBe(true);
  }
}

/** purchase_count is each gig's completed purchases, never past its cap. */
async function expectLedger() {
  const rows = await database.db
    .select({
      over: sql<number>`count(*) filter (where ${gigs.purchaseCount} > ${gigs.maxDiggers} or ${gigs.purchaseCount} <> (select count(*) from ${leadPurchases} where ${leadPurchases.gigId} = ${gigIdColumn} and ${leadPurchases.status} = 'completed'))::int`,
    })
    .from(gigs);
  expect(rows[0]!.over).toBe(0);
}

describe(`the hold attack: ${UNCONFIRMED} unconfirmed and ${CONFIRMED} confirmed new accounts of one network on ${GIGS} gigs, renewing their holds`, () => {
  it("keeps every gig listed and buyable by honest diggers elsewhere, whatever the attackers do", async () => {
    // Round 1: every attacker on every gig.
    const first = await attack();
    await expectBounded(first);
    for (const { response } of first.filter((a) => a.response.status === 409)) {
      expect(response.body).toMatch(/Finish or cancel one of your open checkouts first\.|Someone is checking out this lead\. Try again in a few minutes\.|Many new accounts on your network are checking out right now\./);
    }
    expect(first.filter((a) => a.response.body.includes(NETWORK_HOLDS_FULL)).length).toBeGreaterThan(0);
    await expectAllListed();
    // Where the attackers hold every spot left, an honest digger is told why; elsewhere they buy.
    const { held } = await spots();
    if (held.length > 0) {
      const refused = await honest[0]!.http.post(`/gig/${held[0]}`, { intent: "purchase" });
      expect(refused.status).toBe(409);
      expect(refused.body).toContain(SPOTS_HELD);
    }
    await honestDiggersBuy();

    // Round 2: the holds run out and the attackers click Buy again: their lapses make them wait.
    const heldThree = new Set(
      attackers.map((_, n) => n).filter((n) => first.filter((a) => a.attacker === n && a.response.status === 302).length === MAX_LIVE_HOLDS),
    );
    await database.db
      .update(leadPurchases)
      .set({ createdAt: sql`${leadPurchases.createdAt} - make_interval(mins => ${HOLD_MINUTES + 1})` })
      .where(eq(leadPurchases.status, "pending"));
    const second = await attack();
    await expectBounded(second);
    const renewed = second.filter((a) => a.response.status === 302);
    // Only an attacker with fewer than three lapses may hold again, and only up to their limit.
    const lapsedAttackers = new Set(second.filter((a) => a.response.body.includes(LAPSED)).map((a) => a.attacker));
    for (const attacker of heldThree) expect(lapsedAttackers.has(attacker)).toBe(true);
    for (const { attacker } of renewed) expect(lapsedAttackers.has(attacker)).toBe(false);
    await expectAllListed();
    await honestDiggersBuy();

    // Round 3, a day later: the wait is over, and each attacker again holds three at most.
    await database.db
      .update(leadPurchases)
      .set({ createdAt: sql`${leadPurchases.createdAt} - make_interval(hours => ${LAPSE_WAIT_HOURS}, mins => ${HOLD_MINUTES + 1})` })
      .where(eq(leadPurchases.status, "pending"));
    await database.db
      .update(leadPurchases)
      .set({ createdAt: sql`${leadPurchases.createdAt} - make_interval(hours => ${LAPSE_WAIT_HOURS})` })
      .where(eq(leadPurchases.status, "cancelled"));
    const third = await attack();
    await expectBounded(third);
    expect(third.filter((a) => a.response.status === 302).length).toBeGreaterThan(0);
    await expectAllListed();
    await honestDiggersBuy();

    await expectLedger();
    expect(errorLogLines(server.process.output())).toEqual([]);
  }, 480_000);
});
