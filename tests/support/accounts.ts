/** Signed-in users for tests, made through the real sign-up form. */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { diggerProfiles, users } from "../../server/db/schema.ts";
import type { TestApp } from "./app.ts";
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

export async function signUpAs(app: TestApp, userType: "consumer" | "digger", fullName = "Test Person"): Promise<TestUser> {
  const client = new SessionClient(app);
  const email = `${userType}-${randomUUID()}@example.com`;
  const response = await client.post("/auth", {
    intent: "sign-up",
    fullName,
    email,
    password: TEST_PASSWORD,
    userType,
    ageConfirmed: "on",
  });
  if (response.status !== 302) throw new Error(`sign-up failed with ${response.status}`);
  const [user] = await app.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { client, id: user!.id, email, fullName };
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
