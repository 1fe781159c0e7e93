/**
 * What the long tests share: people signed up through the real form over HTTP (each from
 * its own loopback address), diggers with profiles, buying a lead through the test checkout,
 * and latency figures.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { NEW_ACCOUNT_DAYS } from "../../core/lead-spots.ts";
import type { Database } from "../../server/db/client.ts";
import { users } from "../../server/db/schema.ts";
import { addDiggerProfile, TEST_PASSWORD, type WithDatabase } from "../support/accounts.ts";
import { HttpUser, loopbackAddress, type HttpResponse } from "../support/http-user.ts";

export interface Person {
  http: HttpUser;
  id: string;
  email: string;
}

export interface Digger extends Person {
  diggerId: string;
}

/**
 * Signs up through /auth over HTTP from loopback address number `n`; an established person: the
 * e-mail counts as confirmed and the account as older than a week (production counts loopback in
 * the per-network caps, and every person here shares a few /24s: new accounts' holds are capped
 * per network, decision 0030).
 */
export async function signUpOverHttp(origin: string, db: Database, n: number, userType: "consumer" | "digger"): Promise<Person> {
  const http = new HttpUser(origin, loopbackAddress(n));
  const email = `${userType}-${randomUUID()}@example.com`;
  const response = await http.post("/auth", {
    intent: "sign-up",
    fullName: `${userType === "digger" ? "Digger" : "Client"} ${n}`,
    email,
    password: TEST_PASSWORD,
    userType,
    ageConfirmed: "on",
  });
  if (response.status !== 302) throw new Error(`sign-up failed with ${response.status}: ${response.body.slice(0, 300)}`);
  // Established people: their e-mail confirmed, so that their gigs are published and they may buy.
  const [user] = await db
    .update(users)
    .set({ emailVerified: true, createdAt: sql`now() - make_interval(days => ${NEW_ACCOUNT_DAYS + 1})` })
    .where(eq(users.email, email))
    .returning({ id: users.id });
  return { http, id: user!.id, email };
}

/** A digger signed up over HTTP, with a profile written directly (registration has its own tests). */
export async function diggerOverHttp(origin: string, database: WithDatabase, n: number): Promise<Digger> {
  const person = await signUpOverHttp(origin, database.database.db, n, "digger");
  return { ...person, diggerId: await addDiggerProfile(database, person, `Hard Test Trades ${n}`) };
}

export interface PurchaseAttempt {
  /** Every answer on the way, in order. */
  responses: Array<HttpResponse & { step: string }>;
  /** The test checkout's session id, once the purchase was started. */
  sessionId: string | null;
  /** The gig page said "You have purchased this lead." at the end. */
  completed: boolean;
}

/**
 * Buys a lead as a browser would: the gig page, Buy, the test checkout page, Pay (twice at
 * once when `doublePay`, as an impatient double click), and the gig page after payment.
 * Stops at the first answer that is not the expected one; network errors are thrown.
 */
export async function buyLead(digger: Digger, gigId: string, { doublePay = false } = {}): Promise<PurchaseAttempt> {
  const attempt: PurchaseAttempt = { responses: [], sessionId: null, completed: false };
  const step = async (name: string, request: Promise<HttpResponse>, ok: (r: HttpResponse) => boolean) => {
    const response = await request.catch((error: Error) => {
      throw new Error(`${name}: ${error.message}`);
    });
    attempt.responses.push({ ...response, step: name });
    return ok(response) ? response : null;
  };
  const gigPath = `/gig/${gigId}`;
  if (!(await step("gig page", digger.http.get(gigPath), (r) => r.status === 200))) return attempt;
  const start = await step("buy", digger.http.post(gigPath, { intent: "purchase" }), (r) => r.status === 302 && /^\/checkout\/test_cs_/.test(r.location ?? ""));
  if (!start) return attempt;
  const checkout = start.location!;
  attempt.sessionId = checkout.slice("/checkout/".length);
  if (!(await step("checkout page", digger.http.get(checkout), (r) => r.status === 200))) return attempt;
  const paid = (r: HttpResponse) => r.status === 302 && r.location?.startsWith(gigPath) === true;
  const pays = await Promise.all(
    Array.from({ length: doublePay ? 2 : 1 }, () => step("pay", digger.http.post(checkout, { intent: "pay" }), paid)),
  );
  if (pays.some((r) => !r)) return attempt;
  const after = await step("gig page after paying", digger.http.get(`${gigPath}?payment=success`), (r) => r.status === 200);
  attempt.completed = after !== null && after.body.includes("You have purchased this lead.");
  return attempt;
}

/** The q-th quantile (0..1) of some durations, in whole milliseconds. */
export function quantile(durations: number[], q: number): number {
  if (durations.length === 0) return 0;
  const sorted = [...durations].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
}

/** Server log lines at error level or above (pino's JSON: level 50 and up). */
export function errorLogLines(output: string): string[] {
  return output.split("\n").filter((line) => {
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return false;
    }
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
