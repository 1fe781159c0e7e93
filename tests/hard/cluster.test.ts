/**
 * Many servers (issue 18): three built servers as processes in production mode on one fresh
 * PostgreSQL database, behind a small proxy that ends TLS, as production's do (an https
 * PUBLIC_URL; X-Forwarded-For and X-Forwarded-Proto, TRUST_PROXY=1; issue 30), with
 * their files in a real S3-protocol server and e-mail to a real SMTP server. What one server
 * does, the others see: rate limits, page-cache invalidation, uploads, jobs run once; and a
 * server killed with SIGKILL under load loses and duplicates no purchase, while the two that
 * stay answer no 5xx.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_SENT } from "../../core/contact-schema.ts";
import { queryRows } from "../../server/db/client.ts";
import { categories, diggerProfiles, leadPurchases } from "../../server/db/schema.ts";
import { keyOfUploadUrl } from "../../server/storage/storage.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { validDiggerForm, validGigForm } from "../support/forms.ts";
import { HttpUser, loopbackAddress } from "../support/http-user.ts";
import { makeImage } from "../support/images.ts";
import { insertGig } from "../support/leads.ts";
import { freePort } from "../support/ports.ts";
import { startProductionServer, type ProductionServer } from "../support/production-server.ts";
import { startProxy, type TestProxy } from "../support/proxy.ts";
import { startS3Peer, type S3Peer } from "../support/s3.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { testCertificate } from "../support/tls-certificate.ts";
import { buyLead, diggerOverHttp, signUpOverHttp, sleep, type Digger, type PurchaseAttempt } from "./helpers.ts";

const SERVERS = 3;
const LOAD_SECONDS = Number(process.env.HARD_CLUSTER_LOAD_SECONDS ?? 20);
const BUYERS = 12;

let database: TestDatabase;
let s3: S3Peer;
let smtp: TestSmtpServer;
let proxy: TestProxy;
const servers: ProductionServer[] = [];
let categoryId: string;

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  database = await createTestDatabase({ serverUrl, prefix: "dg_cluster" });
  [s3, smtp] = await Promise.all([startS3Peer(), startSmtpServer()]);
  // The site's address is the proxy's: links, cookies and the origin check name it.
  const proxyPort = await freePort();
  const shared = {
    PUBLIC_URL: `https://127.0.0.1:${proxyPort}`,
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    TRUST_PROXY: "1",
    PAGE_CACHE_SECONDS: "60",
    ...s3.env,
  };
  // One after another: the first migrates, the others find it done.
  for (let i = 0; i < SERVERS; i += 1) servers.push(await startProductionServer({ databaseUrl: database.url!, smtpUrl: smtp.url, env: shared }));
  proxy = await startProxy(
    servers.map((s) => s.url),
    { port: proxyPort, tls: testCertificate() },
  );
  const [category] = await database.db.select({ id: categories.id }).from(categories).where(isNull(categories.parentCategoryId)).limit(1);
  categoryId = category!.id;
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(servers.map((s) => s.stop()));
  await smtp?.stop();
  await s3?.close();
  await database?.destroy();
});

/** A signed-out request through the proxy, from the client at loopback address `n`. */
function fetchAs(n: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const client = new HttpUser(proxy.url, loopbackAddress(n));
  return client.send(init.method ?? "GET", path, init.body).finally(() => client.close());
}

describe(`${SERVERS} servers on one database behind a proxy`, () => {
  it("counts the sign-up limit across all servers, per client address as the proxy names it", async () => {
    const signUp = async (n: number) => {
      const user = new HttpUser(proxy.url, loopbackAddress(n));
      try {
        return await user.postJson("/api/auth/sign-up/email", {
          name: "Limit Tester",
          email: `limit-${randomUUID()}@example.com`,
          password: "correct-horse-battery",
          ageConfirmed: true,
        });
      } finally {
        user.close();
      }
    };
    // Ten sign-ups a minute per client address (Better Auth's limit, counted in PostgreSQL).
    const answers = [];
    for (let i = 0; i < 10; i += 1) answers.push(await signUp(900));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.headers["x-backend"])).size).toBe(SERVERS);
    expect((await signUp(900)).status).toBe(429);
    // Another client address behind the same proxy is not limited.
    expect((await signUp(901)).status).toBe(200);
  });

  it("shows a gig posted through one server on another's cached Browse Gigs within a second", async () => {
    const client = await signUpOverHttp(proxy.url, database.db, 910, "consumer");
    const browse = () => fetchAs(911, "/browse-gigs");
    proxy.pin(1);
    try {
      await browse();
      const cached = await browse();
      expect(cached.headers["x-page-cache"]).toBe("hit");
      proxy.pin(0);
      const form = validGigForm(categoryId);
      const posted = await client.http.post("/post-gig", form);
      expect(posted.status).toBe(302);
      // On the https site (HttpUser makes its absolute URLs paths), never the http hop's.
      expect(posted.location).toMatch(/^\//);
      expect(posted.headers["x-backend"]).toBe("0");
      const postedAt = performance.now();
      proxy.pin(1);
      let seen = await browse();
      while (!seen.body.includes(form.title!) && performance.now() - postedAt < 1_000) seen = await browse();
      expect(seen.headers["x-backend"]).toBe("1");
      expect(seen.body).toContain(form.title!);
    } finally {
      proxy.pin(null);
      client.http.close();
    }
  });

  it("serves a photo uploaded through one server from the others, the file in the object store", async () => {
    const digger = await signUpOverHttp(proxy.url, database.db, 920, "digger");
    proxy.pin(0);
    try {
      const form = new FormData();
      for (const [key, value] of Object.entries(validDiggerForm(categoryId))) form.append(key, value);
      const image = await makeImage("jpeg", { width: 300 });
      form.append("profilePhoto", new File([new Uint8Array(image)], "me.jpg", { type: "image/jpeg" }));
      // The multipart body as a browser would encode it.
      const encoded = new Request("https://encode.invalid/", { method: "POST", body: form });
      const body = Buffer.from(await encoded.arrayBuffer());
      const registered = await digger.http.send("POST", "/digger-registration", body, encoded.headers.get("content-type")!);
      expect(registered.status).toBe(302);
      expect(registered.headers["x-backend"]).toBe("0");
    } finally {
      proxy.pin(null);
      digger.http.close();
    }
    const [profile] = await database.db.select({ photo: diggerProfiles.profileImageUrl }).from(diggerProfiles).where(eq(diggerProfiles.userId, digger.id));
    const key = keyOfUploadUrl(profile!.photo!)!;
    expect(await s3.head(key)).toMatchObject({ contentType: "image/jpeg" });
    const bodies = [];
    for (const backend of [1, 2]) {
      proxy.pin(backend);
      const served = await fetchAs(921, profile!.photo!);
      expect(served.status).toBe(200);
      expect(served.headers["x-backend"]).toBe(String(backend));
      expect(served.headers["content-type"]).toBe("image/jpeg");
      bodies.push(served.bytes);
    }
    proxy.pin(null);
    expect(bodies[0]!.length).toBeGreaterThan(0);
    expect(bodies[0]!.equals(bodies[1]!)).toBe(true);
  });

  it("runs each job once while every server's workers run: each contact message is e-mailed once", async () => {
    const subjects = Array.from({ length: 9 }, (_, i) => `Cluster question ${i} ${randomUUID().slice(0, 8)}`);
    const sent = await Promise.all(
      subjects.map((subject, i) =>
        fetchAs(930 + (i % 3), "/contact", {
          method: "POST",
          body: new URLSearchParams({ name: "Grace Hopper", email: "grace@example.com", subject, message: "Do several servers send my message once?" }).toString(),
        }),
      ),
    );
    expect(sent.every((r) => r.status === 200 && r.body.includes(CONTACT_SENT))).toBe(true);
    expect(new Set(sent.map((r) => r.headers["x-backend"])).size).toBe(SERVERS);
    const deliveredOf = (subject: string) => smtp.messages.filter((m) => m.parsed.subject?.includes(subject)).length;
    for (let i = 0; i < 100 && subjects.some((s) => deliveredOf(s) === 0); i += 1) await sleep(100);
    // Every server's workers poll at least every 2 s: long enough for a second delivery to show.
    await sleep(4_000);
    expect(subjects.map(deliveredOf)).toEqual(subjects.map(() => 1));
    const [{ done }] = (await queryRows<{ done: number }>(
      database.db,
      sql`select count(*)::int as done from pgboss.job where name = 'email.deliver' and state = 'completed'`,
    )) as [{ done: number }];
    expect(done).toBeGreaterThanOrEqual(subjects.length);
  });

  it("loses and duplicates no purchase when a server is killed under load, and the two that stay answer no 5xx", async () => {
    const owner = await signUpOverHttp(proxy.url, database.db, 940, "consumer");
    owner.http.close();
    const gigIds: string[] = [];
    for (let i = 0; i < 40; i += 1) gigIds.push((await insertGig({ database }, owner.id, { categoryId })).id);
    const diggers: Digger[] = [];
    for (let n = 0; n < BUYERS; n += 1) diggers.push(await diggerOverHttp(proxy.url, { database }, 950 + n));

    const attempts: PurchaseAttempt[] = [];
    /** Answers broken off by the kill (the proxy counts them for the killed server). */
    let brokenOff = 0;
    const until = performance.now() + LOAD_SECONDS * 1000;
    const buyer = async (digger: Digger, offset: number) => {
      for (let i = offset; performance.now() < until; i += 1) {
        try {
          attempts.push(await buyLead(digger, gigIds[(i * 7) % gigIds.length]!));
        } catch {
          brokenOff += 1;
        }
      }
    };
    const load = Promise.all(diggers.map((d, n) => buyer(d, n)));
    await sleep((LOAD_SECONDS * 1000) / 3);
    servers[2]!.process.child.kill("SIGKILL");
    await load;
    for (const digger of diggers) digger.http.close();

    const paid = attempts.filter((a) => a.responses.some((r) => r.step === "pay" && r.status === 302)).map((a) => a.sessionId!);
    const completedRows = await database.db
      .select({ session: leadPurchases.providerSessionId })
      .from(leadPurchases)
      .where(eq(leadPurchases.status, "completed"));
    const completed = new Set(completedRows.map((r) => r.session));
    const duplicates = await queryRows(database.db, sql`select gig_id from lead_purchases where status = 'completed' group by gig_id, digger_id having count(*) > 1`);
    const miscounted = await queryRows(
      database.db,
      sql`select g.id from gigs g where g.purchase_count <> (select count(*) from lead_purchases p where p.gig_id = g.id and p.status = 'completed')`,
    );
    console.info(
      `cluster under load, server 2 killed after ${Math.round(LOAD_SECONDS / 3)} s: ${attempts.length} purchase attempts, ${paid.length} paid, ` +
        `${completed.size} completed in the database, ${brokenOff} broken off by the kill; answers by server: ${JSON.stringify(proxy.answers)}`,
    );

    expect(servers[2]!.alive()).toBe(false);
    expect(proxy.down.has(2)).toBe(true);
    expect(paid.length).toBeGreaterThan(BUYERS);
    // Every purchase a digger saw paid is completed; none twice; every gig's count is right.
    expect(paid.filter((session) => !completed.has(session))).toEqual([]);
    expect(duplicates).toEqual([]);
    expect(miscounted).toEqual([]);
    // The servers that stayed never failed a request; only the killed one's in-flight ones did.
    expect(proxy.answers[0]!.errors + proxy.answers[1]!.errors).toBe(0);
    expect(proxy.answers[0]!.aborted + proxy.answers[1]!.aborted).toBe(0);
    expect(brokenOff).toBeLessThanOrEqual(proxy.answers[2]!.aborted);
    expect(proxy.answers[0]!.total).toBeGreaterThan(0);
    expect(proxy.answers[1]!.total).toBeGreaterThan(0);
    for (const backend of [0, 1]) expect((await fetch(`${servers[backend]!.url}/readyz`)).status).toBe(200);
  });
});
