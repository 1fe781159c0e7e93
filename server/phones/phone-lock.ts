/**
 * Every transaction that changes an account's numbers (the account's, its gigs', a verification,
 * the waiting code) takes the account's row first (issue 49): they run one at a time per account
 * and take their rows in one order (the account, then a gig, then the code), so that two of them
 * never wait on each other, and `forgetUnusedVerification` sees every other change committed.
 */
import { eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { users } from "../db/schema.ts";

export async function lockAccountPhones(tx: Transaction, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
}
