/**
 * What sending codes may cost (issue 49, SMS pumping): at most 3 codes per number in 10
 * minutes, 5 per account a day, 10 per client network (the /24 or /64) an hour, and a daily cap
 * per country calling code (SMS_DAILY_CAP_PER_COUNTRY), all counted in the database so that
 * two servers on one PostgreSQL share them. Each request below alternates between two app
 * instances on one database, as servers behind a proxy would (on PGlite, one process that counts
 * in its memory, the two are one app); the texts go through the real AWS SDK to a local SNS
 * peer, which shows how many were really sent.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { decodeHtml } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";
import { startSnsPeer, type SnsPeer } from "../support/sns-peer.ts";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Two servers on PostgreSQL; on PGlite (embedded, one process) the same app twice. */
async function twoServers(env: Record<string, string>, database: TestDatabase): Promise<[TestApp, TestApp]> {
  const first = await createTestApp(env, { database });
  return [first, onPostgres ? await createTestApp(env, { database }) : first];
}
const closeAll = (apps: TestApp[]) => Promise.all([...new Set(apps)].map((app) => app.close()));

let peer: SnsPeer;
let database: TestDatabase;
let servers: [TestApp, TestApp];
beforeAll(async () => {
  peer = await startSnsPeer();
  database = await createTestDatabase();
  // Loopback addresses count like any other here (NETWORK_LIMITS_ON_LOOPBACK), as they do in production.
  const env = { ...peer.env, NETWORK_LIMITS_ON_LOOPBACK: "true" };
  servers = await twoServers(env, database);
});
afterAll(async () => {
  await closeAll(servers ?? []);
  await database?.destroy();
  await peer?.stop();
});

let lastLine = 2000;
const newNumber = (prefix = "+1201555") => `${prefix}${String(++lastLine).padStart(4, "0")}`;
/** The n-th request goes to the one server or the other. */
const server = (n: number) => servers[n % 2]!;

/** `user`'s session, on `app`, from the client address `ip`. */
function clientOf(app: TestApp, user: TestUser, ip: string): SessionClient {
  const client = new SessionClient(app, ip);
  for (const [name, value] of user.client.cookies) client.cookies.set(name, value);
  return client;
}
const askCode = (client: SessionClient, accountPhone: string) => client.post("/account", { intent: "phone-save", accountPhone });
const textsTo = (phone: string) => peer.published.filter((text) => text.phoneNumber === phone).length;
const minutePassed = (app: TestApp, userId: string) =>
  app.database.db.execute(sql`update phone_codes set sent_at = sent_at - interval '61 seconds' where user_id = ${userId}`);

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  expect(decodeHtml(await response.text())).toContain(PHONE_TEXTS.tooManyCodes);
}
const expectSent = (response: Response) => expect(location(response)).toBe("/verify-phone?next=/account");

describe("the sending limits, across two servers on one database", () => {
  it("3 codes per number in 10 minutes, whichever accounts ask", async () => {
    const number = newNumber();
    for (let n = 0; n < 3; n++) {
      const user = await signUpAs(server(n), "consumer");
      expectSent(await askCode(clientOf(server(n), user, `10.60.${n}.1`), number));
    }
    const fourth = await signUpAs(server(3), "consumer");
    await expectRefused(await askCode(clientOf(server(3), fourth, "10.60.3.1"), number));
    expect(textsTo(number)).toBe(3);
    // The refusal took nothing from the account's own count: another number goes out.
    expectSent(await askCode(clientOf(server(4), fourth, "10.60.3.1"), newNumber()));
  });

  it("5 codes per account a day", async () => {
    const user = await signUpAs(server(0), "consumer");
    const numbers = Array.from({ length: 6 }, () => newNumber());
    for (let n = 0; n < 5; n++) {
      expectSent(await askCode(clientOf(server(n), user, "10.61.0.1"), numbers[n]!));
      await minutePassed(server(n), user.id);
    }
    await expectRefused(await askCode(clientOf(server(5), user, "10.61.0.1"), numbers[5]!));
    expect(textsTo(numbers[5]!)).toBe(0);
    // 'Verify this number' counts the same.
    await expectRefused(await clientOf(server(6), user, "10.61.0.1").post("/account", { intent: "phone-verify" }));
  });

  it("10 codes per client network (the /24) an hour, loopback included with NETWORK_LIMITS_ON_LOOPBACK", async () => {
    const before = peer.published.length;
    for (let n = 0; n < 10; n++) {
      const user = await signUpAs(server(n), "consumer");
      expectSent(await askCode(clientOf(server(n), user, `127.0.9.${n + 1}`), newNumber()));
    }
    const eleventh = await signUpAs(server(10), "consumer");
    await expectRefused(await askCode(clientOf(server(10), eleventh, "127.0.9.200"), newNumber()));
    expect(peer.published.length).toBe(before + 10);
    // Another network is another count.
    expectSent(await askCode(clientOf(server(11), eleventh, "127.0.10.1"), newNumber()));
  });

  it("10 per network by the forwarded address when a proxy is trusted", async () => {
    const proxied = await twoServers({ ...peer.env, TRUST_PROXY: "1" }, database);
    try {
      const ask = (n: number, user: TestUser, forwarded: string) => {
        const client = clientOf(proxied[n % 2]!, user, "10.9.0.5");
        return client.send("/account", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: proxied[0]!.config.publicUrl, "x-forwarded-for": forwarded },
          body: new URLSearchParams({ intent: "phone-save", accountPhone: newNumber() }).toString(),
        });
      };
      for (let n = 0; n < 10; n++) expectSent(await ask(n, await signUpAs(proxied[n % 2]!, "consumer"), `203.0.113.${n + 1}`));
      await expectRefused(await ask(10, await signUpAs(proxied[0]!, "consumer"), "203.0.113.99"));
      expectSent(await ask(11, await signUpAs(proxied[1]!, "consumer"), "198.51.100.1"));
    } finally {
      await closeAll(proxied);
    }
  });
});

describe("the daily cap per country (SMS_DAILY_CAP_PER_COUNTRY) and the countries texted (SMS_COUNTRIES)", () => {
  let capped: TestDatabase;
  let pair: [TestApp, TestApp];
  beforeAll(async () => {
    capped = await createTestDatabase();
    const env = { ...peer.env, SMS_DAILY_CAP_PER_COUNTRY: "3", SMS_COUNTRIES: "US,GB" };
    pair = await twoServers(env, capped);
  });
  afterAll(async () => {
    await closeAll(pair ?? []);
    await capped?.destroy();
  });

  it("counts every account's codes to one country together, on both servers; other countries go on", async () => {
    const uk = () => newNumber("+44740012");
    for (let n = 0; n < 3; n++) {
      const user = await signUpAs(pair[n % 2]!, "consumer");
      expectSent(await askCode(clientOf(pair[n % 2]!, user, `10.70.${n}.1`), uk()));
    }
    const late = await signUpAs(pair[1]!, "consumer");
    const refusedNumber = uk();
    await expectRefused(await askCode(clientOf(pair[1]!, late, "10.70.9.1"), refusedNumber));
    expect(textsTo(refusedNumber)).toBe(0);
    expectSent(await askCode(clientOf(pair[0]!, late, "10.70.9.1"), newNumber()));
  });

  it("texts no number outside SMS_COUNTRIES, +1 876 (Jamaica) included: nothing sent, no limit used", async () => {
    const user = await signUpAs(pair[0]!, "consumer");
    for (const number of ["+18762101234", "+33612345678"]) {
      const response = await askCode(clientOf(pair[0]!, user, "10.71.0.1"), number);
      expect(decodeHtml(await response.text())).toContain(PHONE_TEXTS.countryNotServed);
      expect(textsTo(number)).toBe(0);
    }
    expectSent(await askCode(clientOf(pair[1]!, user, "10.71.0.1"), newNumber()));
  });
});
