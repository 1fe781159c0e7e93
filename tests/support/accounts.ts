/**
 * Signed-in users for tests: established accounts (e-mail confirmed, like the demo data),
 * written to the database and signed in through the real sign-in form. Signing up itself,
 * and the confirmation e-mail it sends, have their own tests.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { hashPassword } from "better-auth/crypto";
import type { Database } from "../../server/db/client.ts";
import { accounts, diggerProfiles, sessions, users } from "../../server/db/schema.ts";
import type { TestApp } from "./app.ts";
import { busCaughtUp } from "./bus.ts";
import { SessionClient } from "./session-client.ts";

/** A test app, or anything else holding a database (the long tests' server processes). */
export interface WithDatabase {
  database: { db: Database };
}

export const TEST_PASSWORD = "correct-horse";

export interface TestUser {
  client: SessionClient;
  id: string;
  email: string;
  fullName: string;
}

let passwordHash: Promise<string> | undefined;

export async function signUpAs(app: TestApp, userType: "consumer" | "digger", fullName = "Test Person"): Promise<TestUser> {
  const id = randomUUID();
  const email = `${userType}-${id}@example.com`;
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const db = app.database.db;
  await db.insert(users).values({ id, name: fullName, email, emailVerified: true, userType });
  await db.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: await passwordHash });
  const client = new SessionClient(app);
  const response = await client.post("/auth", { intent: "sign-in", email, password: TEST_PASSWORD });
  if (response.status !== 302) throw new Error(`sign-in failed with ${response.status}`);
  return { client, id, email, fullName };
}

/**
 * Deletes the user's sessions without the trigger's notice (migration 0041): what the session
 * cookie cache would miss without it (decision 0053). Their cookie is then all that says who they are.
 */
export async function deleteSessionsUnheard(app: WithDatabase, userId: string) {
  await app.database.db.transaction(async (tx) => {
    await tx.execute(sql`alter table sessions disable trigger sessions_version_notice`);
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.execute(sql`alter table sessions enable trigger sessions_version_notice`);
  });
}

/** An operator (npm run operator's role) with a client account, signed in. */
export async function signUpOperator(app: TestApp, fullName = "Oscar Operator"): Promise<TestUser> {
  const operator = await signUpAs(app, "consumer", fullName);
  await changeUser(app, operator.id, { operatorSince: new Date() });
  return operator;
}

/**
 * Changes a user's row behind the app's back, as a script or another server would, and waits until
 * the app has heard it. A session already signed in answers from the cookie cache until the
 * trigger's notice arrives, one NOTIFY round trip later (decisions 0053 and 0059); a test that
 * asks a page right after the change would race that notice.
 */
export async function changeUser(app: TestApp, userId: string, values: Partial<typeof users.$inferInsert>): Promise<void> {
  await app.database.db.update(users).set(values).where(eq(users.id, userId));
  await busCaughtUp(app);
}

/** The flash toast a redirect carried, read from the next page. */
export async function flashAfter(client: SessionClient, path = "/"): Promise<string> {
  return (await client.get(path)).text();
}

/** A digger profile for a signed-up digger, written directly (registration has its own tests). */
export async function addDiggerProfile(
  app: WithDatabase,
  user: Pick<TestUser, "id">,
  businessName = "Test Business LLC",
  over: Partial<typeof diggerProfiles.$inferInsert> = {},
): Promise<string> {
  const [profile] = await app.database.db
    .insert(diggerProfiles)
    .values({
      userId: user.id,
      handle: `d_${user.id.replace(/[^a-z0-9]/gi, "").slice(0, 20).toLowerCase()}`,
      businessName,
      phone: "(555) 010-9999",
      location: "Austin, TX",
      profession: "Handyman",
      bio: "General repairs.",
      ...over,
    })
    .returning({ id: diggerProfiles.id });
  return profile!.id;
}
