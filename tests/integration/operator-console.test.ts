/**
 * The operator console's foundation (issue 22): the role no form or API can give, the command
 * that grants and revokes it, /ops as the 404 page for everyone but operators, two-factor in
 * production, and the audit trail that nothing changes or removes.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ACTIONS } from "../../core/operator-actions.ts";
import { openDatabase } from "../../server/db/client.ts";
import { operatorActions, sessions, users } from "../../server/db/schema.ts";
import { DEMO_OPERATOR, DEMO_PASSWORD, seedCategories, seedDemoData } from "../../server/db/seed/index.ts";
import { recordOperatorAction } from "../../server/events/audit.ts";
import { auditLog } from "../../server/ops/audit-log.ts";
import { setOperator, twoFactorFirst } from "../../server/ops/operators.ts";
import { changeUser, signUpAs, signUpOperator } from "../support/accounts.ts";
import { busCaughtUp } from "../support/bus.ts";
import { createTestApp, PRODUCTION_ENV, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";
import { decodeHtml, insertGig } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, "../..");
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());
const db = () => app.database.db;

const operatorAccount = (target: TestApp = app) => signUpOperator(target, "Olga Operator");

const NOT_FOUND_PAGE = "Oops! Page not found";

describe("the console at /ops", () => {
  it("is the 404 page for visitors, consumers and diggers, the same as an unknown address", async () => {
    const unknown = await new SessionClient(app).get("/no-such-page");
    expect(unknown.status).toBe(404);
    for (const client of [new SessionClient(app), (await signUpAs(app, "consumer")).client, (await signUpAs(app, "digger")).client]) {
      for (const page of ["/ops", "/ops/audit", "/ops/audit?action=user.suspend"]) {
        const response = await client.get(page);
        const html = decodeHtml(await response.text());
        expect(response.status, page).toBe(404);
        expect(html).toContain(NOT_FOUND_PAGE);
        expect(html).not.toMatch(/Operator console|Audit log/);
      }
      // The data request of client-side navigation carries the refusal and none of the console's data
      // (its route ids are public, like every route's in the framework's manifest: decision 0026).
      const data = await client.get("/ops/audit.data");
      expect(data.status).toBe(404);
      const body = await data.text();
      expect(body).toContain("Page not found");
      expect(body).not.toMatch(/"(filters|notice|page|items)"/);
    }
  });

  it("opens for an operator, with its menu and, in local mode without two-factor, the banner", async () => {
    const operator = await operatorAccount();
    const response = await operator.client.get("/ops/audit");
    expect(response.status).toBe(200);
    const html = decodeHtml(await response.text());
    for (const section of ["Verification queue", "Users", "Gigs", "Reviews", "Payments", "Audit log"]) expect(html).toContain(`>${section}<`);
    expect(html).toContain("In production the console opens only with two-factor authentication on.");
    expect(html).toMatch(/href="\/ops"[^>]*>Operator console</);
    expect(location(await operator.client.get("/ops"))).toBe("/ops/verification");
    // Nobody else sees the header's link.
    const clientUser = await signUpAs(app, "consumer");
    expect(await (await clientUser.client.get("/")).text()).not.toContain("Operator console");
  });

  it("in production, sends an operator without two-factor to their account, and opens with it", async () => {
    const production = await createTestApp(PRODUCTION_ENV);
    try {
      const operator = await operatorAccount(production);
      const refused = await operator.client.get("/ops/audit");
      expect(refused.status).toBe(302);
      expect(location(refused)).toBe("/account");
      expect(await (await operator.client.get("/account")).text()).toContain("Turn on two-factor authentication to open the operator console.");
      // Outside the console too: a hidden gig's page is an operator's by the same rule.
      const client = await signUpAs(production, "consumer", "Hidden Gig Client");
      const hidden = await insertGig(production, client.id, { hiddenAt: new Date(), hiddenReason: "Spam" });
      expect(location(await operator.client.get(`/gig/${hidden.id}`))).toBe("/browse-gigs");

      await changeUser(production, operator.id, { twoFactorEnabled: true });
      const opened = await operator.client.get("/ops/audit");
      expect(opened.status).toBe(200);
      expect(await opened.text()).not.toContain("In production the console opens only");
      expect((await operator.client.get(`/gig/${hidden.id}`)).status).toBe(200);
      // Everyone else: still the 404 page.
      expect((await new SessionClient(production).get("/ops/audit")).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe("the operator role", () => {
  it("cannot be taken through sign-up or Better Auth's update-user", async () => {
    const email = `wannabe-${randomUUID()}@example.com`;
    const client = new SessionClient(app);
    const headers = { "content-type": "application/json", origin: app.config.publicUrl };
    await client.send("/api/auth/sign-up/email", {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Wanna Be", email, password: "a-good-password-1", userType: "consumer", ageConfirmed: true, operatorSince: new Date().toISOString() }),
    });
    const [created] = await db().select({ operatorSince: users.operatorSince }).from(users).where(eq(users.email, email));
    expect(created?.operatorSince ?? null).toBeNull();

    const user = await signUpAs(app, "consumer");
    const update = await user.client.send("/api/auth/update-user", { method: "POST", headers, body: JSON.stringify({ operatorSince: new Date().toISOString() }) });
    expect(update.status).toBe(400);
    const [after] = await db().select({ operatorSince: users.operatorSince }).from(users).where(eq(users.id, user.id));
    expect(after?.operatorSince).toBeNull();
    expect((await user.client.get("/ops/audit")).status).toBe(404);
  });

  it("is granted and revoked by setOperator, which ends a revoked operator's sessions and writes the audit trail", async () => {
    const user = await signUpAs(app, "consumer");
    expect((await setOperator(db(), user.email.toUpperCase(), true)).message).toContain("is now an operator");
    // The grant reaches the signed cookie's version by a NOTIFY (decision 0053): wait for it.
    await busCaughtUp(app);
    expect((await user.client.get("/ops/audit")).status).toBe(200);
    expect((await setOperator(db(), user.email, true)).message).toContain("is already an operator");
    expect((await setOperator(db(), user.email, false)).message).toContain("is no longer an operator");
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    await busCaughtUp(app);
    expect((await user.client.get("/ops/audit")).status).toBe(404);
    const trail = await db().select({ action: operatorActions.action, operatorId: operatorActions.operatorId }).from(operatorActions).where(eq(operatorActions.subjectUserId, user.id));
    expect(trail.map((r) => r.action).sort()).toEqual(["operator.grant", "operator.revoke"]);
    expect(trail.every((r) => r.operatorId === "cli")).toBe(true);
    expect(await setOperator(db(), `nobody-${randomUUID()}@example.com`, true)).toMatchObject({ ok: false });
  });

  it("is granted by `npm run operator -- grant EMAIL` on the configured database", { timeout: 90_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-operator-"));
    try {
      const target = onPostgres ? { kind: "postgres" as const, url: app.database.url! } : { kind: "pglite" as const, dataDir: path.join(dataDir, "pglite") };
      const email = `cli-${randomUUID()}@example.com`;
      const insert = async (handle: { db: typeof app.database.db }) =>
        handle.db.insert(users).values({ id: randomUUID(), name: "Cli Operator", email, emailVerified: true });
      if (onPostgres) await insert(app.database);
      else {
        const handle = await openDatabase(target);
        await handle.migrate();
        await insert(handle);
        await handle.close();
      }
      const env = { ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, DATABASE_URL: onPostgres ? app.database.url : "" };
      const { stdout } = await run("npm", ["run", "--silent", "operator", "--", "grant", email], { cwd: projectRoot, env });
      expect(stdout).toContain(`${email} is now an operator.`);
      const usage = await run("npm", ["run", "--silent", "operator", "--", "promote", email], { cwd: projectRoot, env }).catch((error: { code: number; stderr: string }) => error);
      expect(usage).toMatchObject({ code: 2 });
      expect((usage as { stderr: string }).stderr).toContain("Usage: npm run operator -- grant EMAIL | revoke EMAIL");

      const handle = onPostgres ? app.database : await openDatabase(target);
      try {
        const [row] = await handle.db.select({ operatorSince: users.operatorSince }).from(users).where(eq(users.email, email));
        expect(row?.operatorSince).toBeInstanceOf(Date);
      } finally {
        if (!onPostgres) await handle.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("in production grants the role only to an account with two-factor authentication on, and says to enrol it on /account first", async () => {
    const user = await signUpAs(app, "consumer");
    const refused = await setOperator(db(), user.email, true, { requireTwoFactor: true });
    expect(refused).toEqual({ ok: false, message: twoFactorFirst(user.email) });
    expect(refused.message).toContain("enrol two-factor authentication on /account first");
    const [row] = await db().select({ operatorSince: users.operatorSince }).from(users).where(eq(users.id, user.id));
    expect(row?.operatorSince).toBeNull();
    expect(await db().select().from(operatorActions).where(eq(operatorActions.subjectUserId, user.id))).toEqual([]);

    await db().update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
    expect(await setOperator(db(), user.email, true, { requireTwoFactor: true })).toMatchObject({ ok: true, message: `${user.email} is now an operator.` });
    // Revoking never waits for it.
    const other = await signUpAs(app, "consumer");
    await setOperator(db(), other.email, true);
    expect(await setOperator(db(), other.email, false, { requireTwoFactor: true })).toMatchObject({ ok: true });
  });

  it.runIf(onPostgres)("`npm run operator -- grant` in production refuses an account without two-factor authentication (exit 1), grants it once on", { timeout: 90_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-operator-"));
    try {
      const user = await signUpAs(app, "consumer");
      const env = {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "silent",
        DATA_DIR: dataDir,
        DATABASE_URL: app.database.url,
        BETTER_AUTH_SECRET: "x".repeat(40),
        PUBLIC_URL: "https://digsandgigs.example",
        PAYMENTS_PROVIDER: "test",
        MAIL_TRANSPORT: "outbox",
      };
      const grant = () => run("npm", ["run", "--silent", "operator", "--", "grant", user.email], { cwd: projectRoot, env });
      const refused = await grant().catch((error: { code: number; stdout: string }) => error);
      expect(refused).toMatchObject({ code: 1, stdout: `${twoFactorFirst(user.email)}\n` });
      await db().update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
      expect((await grant()).stdout).toContain(`${user.email} is now an operator.`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("has a demo operator in the local seed, who signs in with the demo password", async () => {
    const database = await createTestDatabase();
    try {
      await seedCategories(database.db);
      expect(await seedDemoData(database.db)).toBe(true);
      const [row] = await database.db.select({ operatorSince: users.operatorSince, userType: users.userType }).from(users).where(eq(users.email, DEMO_OPERATOR.email));
      expect(row?.operatorSince).toBeInstanceOf(Date);
      expect(row?.userType).toBe("consumer");
      expect(DEMO_PASSWORD).toBe("digsandgigs-demo");
    } finally {
      await database.destroy();
    }
  });
});

describe("the audit trail", () => {
  it("is append-only: UPDATE, DELETE and TRUNCATE are refused by the database", async () => {
    const subject = await signUpAs(app, "consumer");
    await db().transaction((tx) =>
      recordOperatorAction(tx, { operatorId: "op-test", action: "user.suspend", subjectType: "user", subjectId: subject.id, subjectUserId: subject.id, reason: "Spam" }),
    );
    const [row] = await db().select().from(operatorActions).where(eq(operatorActions.subjectUserId, subject.id));
    expect(row?.reason).toBe("Spam");
    const refusal = (query: Promise<unknown>) => query.then(() => "allowed", (error: Error) => String(error.cause ?? error));
    expect(await refusal(db().update(operatorActions).set({ reason: "Nothing" }).where(eq(operatorActions.id, row!.id)))).toMatch(/append-only \(UPDATE refused\)/);
    expect(await refusal(db().delete(operatorActions).where(eq(operatorActions.id, row!.id)))).toMatch(/append-only \(DELETE refused\)/);
    expect(await refusal(db().execute(sql`truncate operator_actions`))).toMatch(/append-only \(TRUNCATE refused\)/);
    const [still] = await db().select().from(operatorActions).where(eq(operatorActions.id, row!.id));
    expect(still).toEqual(row);
  });

  it("is listed on the Audit log page, newest first, filtered by action, operator and user", async () => {
    const operator = await operatorAccount();
    const [a, b] = [await signUpAs(app, "consumer", "Audit Subject A"), await signUpAs(app, "consumer", "Audit Subject B")];
    // Two transactions: the second action is the newer one, even when both got the same now().
    await db().transaction((tx) =>
      recordOperatorAction(tx, { operatorId: operator.id, action: "user.suspend", subjectType: "user", subjectId: a.id, subjectUserId: a.id, reason: `Reason for A ${a.id}` }),
    );
    await db().transaction((tx) =>
      recordOperatorAction(tx, { operatorId: operator.id, action: "gig.hide", subjectType: "gig", subjectId: randomUUID(), subjectUserId: b.id, reason: `Reason for B ${b.id}` }),
    );
    const page = async (query: string) => decodeHtml(await (await operator.client.get(`/ops/audit?${query}`)).text());
    const byOperator = await page(`operator=${encodeURIComponent(operator.email)}`);
    expect(byOperator).toContain(`Reason for A ${a.id}`);
    expect(byOperator).toContain(`Reason for B ${b.id}`);
    expect(byOperator.indexOf(`Reason for B ${b.id}`)).toBeLessThan(byOperator.indexOf(`Reason for A ${a.id}`));
    const suspensions = await page(`action=user.suspend&operator=${encodeURIComponent(operator.email)}`);
    expect(suspensions).toContain(`Reason for A ${a.id}`);
    expect(suspensions).not.toContain(`Reason for B ${b.id}`);
    const aboutB = await page(`user=${encodeURIComponent(b.email)}`);
    expect(aboutB).toContain(`Reason for B ${b.id}`);
    expect(aboutB).toContain("Hid gig");
    expect(aboutB).not.toContain(`Reason for A ${a.id}`);
    // An unknown action is no filter; it is never echoed.
    expect(await page("action=%3Cscript%3E")).not.toContain("<script>");
  });

  it("lists two actions of the same instant in the order they were written, on one page and across pages", async () => {
    const operator = await operatorAccount();
    const subject = await signUpAs(app, "consumer", "Same Instant");
    // The same created_at, and the older row with the larger id: only the order of writing tells them apart.
    const at = new Date("2026-11-20T10:00:00.123Z");
    const row = (id: string, reason: string) => ({
      id,
      operatorId: operator.id,
      action: "user.suspend",
      subjectType: "user" as const,
      subjectId: subject.id,
      subjectUserId: subject.id,
      reason,
      createdAt: at,
    });
    await db().insert(operatorActions).values(row("ffffffff-ffff-4fff-bfff-ffffffffffff", "Written first"));
    await db().insert(operatorActions).values(row("00000000-0000-4000-8000-000000000000", "Written second"));
    const all = await auditLog(db(), { action: "", operator: "", user: "", subjectUserId: subject.id }, null);
    expect(all.items.map((entry) => entry.reason)).toEqual(["Written second", "Written first"]);
    const first = await auditLog(db(), { action: "", operator: "", user: "", subjectUserId: subject.id }, null, 1);
    const second = await auditLog(db(), { action: "", operator: "", user: "", subjectUserId: subject.id }, first.nextCursor, 1);
    expect([...first.items, ...second.items].map((entry) => entry.reason)).toEqual(["Written second", "Written first"]);
    expect(second.nextCursor).toBeNull();
  });

  it("links each entry's record by what it opens, writes its details in words, and keeps the filter's words apart", async () => {
    const operator = await operatorAccount();
    const owner = await signUpAs(app, "consumer", "Gail Gigowner");
    const gig = await insertGig(app, owner.id);
    const digger = await signUpAs(app, "digger", "Dana Digger");
    await db().transaction(async (tx) => {
      await recordOperatorAction(tx, { operatorId: operator.id, action: "gig.hide", subjectType: "gig", subjectId: gig.id, subjectUserId: owner.id, reason: "Off-site payment" });
      await recordOperatorAction(tx, {
        operatorId: operator.id,
        action: "credential.approve",
        subjectType: "credential",
        subjectId: randomUUID(),
        subjectUserId: digger.id,
        details: { credential: "licensed", verifiedUntil: "2027-06-30" },
      });
    });
    const html = decodeHtml(await (await operator.client.get(`/ops/audit?operator=${encodeURIComponent(operator.email)}`)).text());
    // The gig's link is its title and opens the gig; the user's link is the user and opens their page.
    expect(html).toMatch(new RegExp(`<a[^>]*href="/gig/${gig.id}"[^>]*>${gig.title}</a>`));
    expect(html).toMatch(new RegExp(`<a[^>]*href="/ops/users/${owner.id}"[^>]*>Gail Gigowner &lt;${owner.email}&gt;</a>`));
    expect(html).toContain("Licensed, verified until Jun 30, 2027");
    expect(html).not.toContain("verifiedUntil: ");
    // The Action filter's options never repeat an entry's words, nor is the list named "action".
    const options = [...html.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((match) => match[1]!.toLowerCase());
    expect(html).toContain("Hid gig");
    expect(html).toContain("Approved credential");
    for (const entryWords of Object.values(OPERATOR_ACTIONS)) {
      expect(options.filter((option) => option.includes(entryWords.toLowerCase()))).toEqual([]);
    }
    expect(html).toContain('aria-label="Audit log entries"');
  });
});
