/**
 * Issue 18, many servers behind a proxy: the rate limits count in PostgreSQL, so two server
 * instances on one database share them; and the client address they count by comes from
 * X-Forwarded-For only as far as TRUST_PROXY trusts it. The instances are two real apps
 * (services and Hono app each) on one test database, as two server processes would be.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { SIGN_UPS_TODAY_REACHED } from "../../server/auth/endpoint-rules.ts";
import { limitedAddress } from "../../server/security/client-address.ts";
import { TOO_MANY_ATTEMPTS } from "../../server/security/rate-limiter.ts";
import { rateLimits, sessions, users } from "../../server/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { SessionClient } from "../support/session-client.ts";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Better Auth's limit on e-mail sign-ups per client address and minute (server/auth/auth.ts). */
const SIGN_UPS_PER_MINUTE = 10;
/** Ours per client address and day (server/security/rate-limiter.ts, issue 45). */
const SIGN_UPS_PER_DAY = 20;
/** The proxy's own address, the socket every proxied request comes from. */
const PROXY = "10.9.0.5";

let database: TestDatabase;
let first: TestApp;
let second: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  database = await createTestDatabase();
  first = await createTestApp({}, { database });
  second = await createTestApp({}, { database });
  proxied = await createTestApp({ TRUST_PROXY: "1" }, { database });
});
afterAll(async () => {
  await Promise.all([first, second, proxied].map((app) => app?.close()));
  await database?.destroy();
});

/** Distinct client addresses per test, so that no test's counts reach another's. */
let lastOctet = 0;
const newAddress = () => `198.51.100.${++lastOctet}`;

function postJson(app: TestApp, socket: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(
    `/api/auth${path}`,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.config.publicUrl, ...headers },
      body: JSON.stringify(body),
    },
    socket,
  );
}
const signUp = (app: TestApp, socket: string, headers?: Record<string, string>, email = `proxy-${randomUUID()}@example.com`) =>
  postJson(app, socket, "/sign-up/email", { name: "Proxy Person", email, password: TEST_PASSWORD, ageConfirmed: true }, headers);
const signIn = (app: TestApp, socket: string, email: string, password: string) =>
  postJson(app, socket, "/sign-in/email", { email, password });

describe.runIf(onPostgres)("two server instances on one PostgreSQL database", () => {
  it(`refuse the ${SIGN_UPS_PER_MINUTE + 1}th sign-up from one client address within a minute, whichever takes it; another address signs up`, async () => {
    const client = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_UPS_PER_MINUTE; i++) statuses.push((await signUp(i % 2 ? second : first, client)).status);
    expect(statuses).toEqual(Array(SIGN_UPS_PER_MINUTE).fill(200));
    expect((await signUp(first, client)).status).toBe(429);
    expect((await signUp(second, client)).status).toBe(429);
    expect((await signUp(second, newAddress())).status).toBe(200);
  });

  it(`refuse sign-up number ${SIGN_UPS_PER_DAY + 1} from one client address within a day, whichever takes it, the JSON endpoint and the form alike; another address signs up`, async () => {
    const client = newAddress();
    // Better Auth's minute ends (its window in the shared table), as it would between batches.
    const nextMinute = () => database.db.update(rateLimits).set({ expire: Date.now() }).where(sql`${rateLimits.key} like 'auth-60s-%'`);
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_UPS_PER_DAY; i++) {
      if (i > 0 && i % SIGN_UPS_PER_MINUTE === 0) await nextMinute();
      statuses.push((await signUp(i % 2 ? second : first, client)).status);
    }
    expect(statuses).toEqual(Array(SIGN_UPS_PER_DAY).fill(200));
    await nextMinute();
    for (const app of [first, second]) {
      const refused = await signUp(app, client);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { message: string }).message).toBe(SIGN_UPS_TODAY_REACHED);
    }
    const form = await new SessionClient(first, client).post("/auth", {
      intent: "sign-up",
      fullName: "Form Person",
      email: `form-${randomUUID()}@example.com`,
      password: TEST_PASSWORD,
      userType: "digger",
      ageConfirmed: "on",
    });
    expect(form.status).toBe(429);
    expect(await form.text()).toContain(SIGN_UPS_TODAY_REACHED);
    expect((await signUp(second, newAddress())).status).toBe(200);
  });

  it("count failed sign-ins across both: ten, five on each, stop that client on either; the owner signs in elsewhere", async () => {
    const user = await signUpAs(first, "consumer");
    const guesser = newAddress();
    for (let i = 0; i < 10; i++) {
      expect((await signIn(i < 5 ? first : second, guesser, user.email, `wrong-${i}`)).status).toBe(401);
    }
    for (const app of [first, second]) {
      const blocked = await signIn(app, guesser, user.email, TEST_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(((await blocked.json()) as { message: string }).message).toBe(TOO_MANY_ATTEMPTS);
    }
    expect((await signIn(second, newAddress(), user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it("share every limit of our own: its maximum taken on either, the next attempt is refused on both", async () => {
    const limits = ["signInFailures", "signUpPerEmail", "passwordResetPerEmail", "confirmationEmailsPerAddress", "contactPerIp"] as const;
    for (const name of limits) {
      const key = `shared-${randomUUID()}`;
      const [a, b] = [first.services.rateLimits[name], second.services.rateLimits[name]];
      for (let i = 0; i < a.max; i++) expect(await (i % 2 ? b : a).take(key)).toBe(true);
      expect([await a.take(key), await b.take(key)]).toEqual([false, false]);
      expect(await a.take(`other-${key}`)).toBe(true);
    }
    // An attempt given back on one (a right password) is given back on both.
    const [a, b] = [first.services.rateLimits.signInFailures, second.services.rateLimits.signInFailures];
    const key = `refunded-${randomUUID()}`;
    for (let i = 0; i < a.max; i++) expect(await (i % 2 ? b : a).take(key)).toBe(true);
    await a.refund(key);
    expect([await b.take(key), await a.take(key)]).toEqual([true, false]);
  });
});

describe("sign-ups per client address and day (issue 45)", () => {
  /** The day's sign-ups from `address` already made, as far as the cap counts (Better Auth allows only 10 a minute). */
  async function signedUpToday(app: TestApp, address: string, n: number) {
    for (let i = 0; i < n; i++) await app.services.rateLimits.signUpsPerAddressPerDay.take(limitedAddress(address));
  }

  it(`refuse sign-up number ${SIGN_UPS_PER_DAY + 1} of one address and of one IPv6 /64, not of another address`, async () => {
    const client = newAddress();
    await signedUpToday(first, client, SIGN_UPS_PER_DAY);
    const refused = await signUp(first, client);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(SIGN_UPS_TODAY_REACHED);
    expect((await signUp(first, newAddress())).status).toBe(200);
    await signedUpToday(first, "2001:db8:45:7::1", SIGN_UPS_PER_DAY);
    expect((await signUp(first, "2001:db8:45:7:abcd::2")).status).toBe(429);
  });

  it("leave loopback out in local mode; NETWORK_LIMITS_ON_LOOPBACK=true counts it", async () => {
    await signedUpToday(first, "127.0.0.1", SIGN_UPS_PER_DAY + 5);
    expect((await signUp(first, "127.0.0.1")).status).toBe(200);
    const counted = await createTestApp({ NETWORK_LIMITS_ON_LOOPBACK: "true" }, { database });
    try {
      await signedUpToday(counted, "127.0.0.9", SIGN_UPS_PER_DAY);
      expect((await signUp(counted, "127.0.0.9")).status).toBe(429);
    } finally {
      await counted.close();
    }
  });
});

describe("the client address behind a proxy", () => {
  it("with TRUST_PROXY=1 is the address the proxy appended: clients behind one proxy are limited each on their own", async () => {
    const [client, other] = [newAddress(), newAddress()];
    for (let i = 0; i < SIGN_UPS_PER_MINUTE; i++) {
      // A forged leading entry, different each time, and our own header forged too: neither counts.
      const headers = { "x-forwarded-for": `203.0.113.${i}, ${client}`, "x-dg-client-ip": `192.0.2.${i}` };
      expect((await signUp(proxied, PROXY, headers)).status).toBe(200);
    }
    expect((await signUp(proxied, PROXY, { "x-forwarded-for": client })).status).toBe(429);
    expect((await signUp(proxied, PROXY, { "x-forwarded-for": other })).status).toBe(200);

    const logged = proxied.logs.filter((line) => line.msg === "request" && line.path === "/api/auth/sign-up/email");
    expect(logged.at(-1)?.clientIp).toBe(other);
    expect(logged.filter((line) => line.clientIp === client)).toHaveLength(SIGN_UPS_PER_MINUTE + 1);
  });

  it("with TRUST_PROXY=1 is what Better Auth records for a session too, not a forged header", async () => {
    const client = newAddress();
    const email = `session-${randomUUID()}@example.com`;
    const response = await signUp(proxied, PROXY, { "x-forwarded-for": `6.6.6.6, ${client}`, "x-dg-client-ip": "192.0.2.1" }, email);
    expect(response.status).toBe(200);
    const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const [session] = await database.db.select({ ipAddress: sessions.ipAddress }).from(sessions).where(eq(sessions.userId, user!.id));
    expect(session?.ipAddress).toBe(client);
  });

  /** A new /64 per test, and addresses in it (issue 30, finding 9). */
  let network = 0;
  const newNetwork = () => {
    const prefix = `2001:db8:${(++network).toString(16)}:${randomUUID().slice(0, 4)}`;
    return (host: number) => `${prefix}:${host.toString(16)}:0:0:${(host * 7).toString(16)}`;
  };
  const contact = (forwardedFor: string) =>
    proxied.request(
      "/contact",
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: proxied.config.publicUrl, "x-forwarded-for": forwardedFor },
        body: new URLSearchParams({ name: "Grace Hopper", email: "grace@example.com", subject: `Question ${randomUUID()}`, message: "How do refunds work for a lead?" }),
      },
      PROXY,
    );

  it("with TRUST_PROXY=1 counts the contact form per IPv6 /64: five messages from five addresses of one, the sixth refused; another /64 sends", async () => {
    const inNetwork = newNetwork();
    for (let host = 1; host <= 5; host++) expect((await contact(inNetwork(host))).status).toBe(200);
    expect((await contact(inNetwork(6))).status).toBe(429);
    // Written another way (zeros compressed, capitals): the same /64.
    expect((await contact(inNetwork(7).toUpperCase().replace(":0:0:", "::"))).status).toBe(429);
    expect((await contact(newNetwork()(1))).status).toBe(200);
  });

  it("with TRUST_PROXY=1 counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    const client = newAddress();
    for (let i = 0; i < 5; i++) expect((await contact(i % 2 ? `::ffff:${client}` : client)).status).toBe(200);
    expect((await contact(`::FFFF:${client}`)).status).toBe(429);
    expect((await contact(client)).status).toBe(429);
  });

  it("with TRUST_PROXY=1 counts failed sign-ins for one e-mail per IPv6 /64: ten from ten addresses of one, then 429; the owner elsewhere signs in", async () => {
    const user = await signUpAs(first, "consumer");
    const inNetwork = newNetwork();
    const signInFrom = (forwardedFor: string, password: string) =>
      postJson(proxied, PROXY, "/sign-in/email", { email: user.email, password }, { "x-forwarded-for": forwardedFor });
    for (let host = 1; host <= 10; host++) expect((await signInFrom(inNetwork(host), `wrong-${host}`)).status).toBe(401);
    const blocked = await signInFrom(inNetwork(11), TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { message: string }).message).toBe(TOO_MANY_ATTEMPTS);
    expect((await signInFrom(newNetwork()(1), TEST_PASSWORD)).status).toBe(200);
  });

  it("with TRUST_PROXY=1 lets Better Auth count sign-ups per IPv6 /64 too", async () => {
    const inNetwork = newNetwork();
    for (let host = 1; host <= SIGN_UPS_PER_MINUTE; host++) {
      expect((await signUp(proxied, PROXY, { "x-forwarded-for": inNetwork(host) })).status).toBe(200);
    }
    expect((await signUp(proxied, PROXY, { "x-forwarded-for": inNetwork(SIGN_UPS_PER_MINUTE + 1) })).status).toBe(429);
  });

  it("without TRUST_PROXY is the socket's: a forged X-Forwarded-For or client-address header does not escape the limit", async () => {
    const socket = newAddress();
    for (let i = 0; i < SIGN_UPS_PER_MINUTE; i++) {
      const headers = { "x-forwarded-for": `203.0.113.${i}`, "x-dg-client-ip": `192.0.2.${i}` };
      expect((await signUp(first, socket, headers)).status).toBe(200);
    }
    expect((await signUp(first, socket, { "x-forwarded-for": "203.0.113.200", "x-dg-client-ip": "192.0.2.200" })).status).toBe(429);
    const logged = first.logs.filter((line) => line.msg === "request" && line.path === "/api/auth/sign-up/email");
    expect(logged.at(-1)?.clientIp).toBe(socket);
  });
});
