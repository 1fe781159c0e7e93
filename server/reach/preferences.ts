/**
 * How to reach me (issue 34; core/reach.ts, docs/decisions/0046-how-to-reach-me.md): each
 * user's E-mail and Push choice per group of events, read by the event path for each notice
 * (server/events/emit.ts) and set by the table on /account or a one-click unsubscribe link.
 */
import { and, eq, sql } from "drizzle-orm";
import type { reachPreferencesSchema} from "#core/reach.ts";
import { ALWAYS_EMAILED, DEFAULT_REACH, REACH_GROUPS, type ReachChoice, type ReachGroup, type ReachPreferences } from "#core/reach.ts";
import type { Database, Transaction } from "../db/client.ts";
import { reachPreferences, users } from "../db/schema.ts";
import type { z } from "zod";

/** Every group's choice of the user; the defaults where they chose nothing. */
export async function reachPreferencesOf(db: Database | Transaction, userId: string): Promise<ReachPreferences> {
  const rows = await db.select().from(reachPreferences).where(eq(reachPreferences.userId, userId));
  const choices = Object.fromEntries(REACH_GROUPS.map((group) => [group, { ...DEFAULT_REACH }])) as ReachPreferences;
  for (const row of rows) if (row.group in choices) choices[row.group as ReachGroup] = { email: row.email, push: row.push };
  for (const group of ALWAYS_EMAILED) choices[group].email = true;
  return choices;
}

/**
 * One group's choice, the user's address and their time zone (null: the default; the notice is
 * written in it), in the event's transaction (null: no such user).
 */
export async function reachOf(tx: Transaction, userId: string, group: ReachGroup | undefined): Promise<(ReachChoice & { address: string; timeZone: string | null }) | null> {
  const [row] = await tx
    .select({ address: users.email, timeZone: users.timeZone, email: reachPreferences.email, push: reachPreferences.push })
    .from(users)
    .leftJoin(reachPreferences, and(eq(reachPreferences.userId, users.id), eq(reachPreferences.group, group ?? "")))
    .where(eq(users.id, userId));
  if (!row) return null;
  return { address: row.address, timeZone: row.timeZone, email: row.email ?? DEFAULT_REACH.email, push: row.push ?? DEFAULT_REACH.push };
}

/**
 * The table's form: saves every group's choices in one statement. An
 * always-e-mailed group stays on; the Push choices are kept as they were when the form had no
 * Push column (no device on).
 */
export async function saveReachPreferences(db: Database, userId: string, input: z.output<typeof reachPreferencesSchema>): Promise<void> {
  const rows = REACH_GROUPS.map((group) => ({
    userId,
    group,
    email: ALWAYS_EMAILED.has(group) || input[`email.${group}`],
    // A form without the Push column: a new row takes Push's default, a saved one keeps its own.
    push: input.push ? input[`push.${group}`] : DEFAULT_REACH.push,
  }));
  await db
    .insert(reachPreferences)
    .values(rows)
    .onConflictDoUpdate({
      target: [reachPreferences.userId, reachPreferences.group],
      set: input.push
        ? { email: sql`excluded.email`, push: sql`excluded.push`, updatedAt: sql`now()` }
        : { email: sql`excluded.email`, updatedAt: sql`now()` },
    });
}

/** One group's E-mail choice turned off (a one-click unsubscribe link): its Push choice is left. */
export async function turnReachEmailOff(db: Database, userId: string, group: Exclude<ReachGroup, "account">): Promise<void> {
  await db
    .insert(reachPreferences)
    .values({ userId, group, email: false })
    .onConflictDoUpdate({ target: [reachPreferences.userId, reachPreferences.group], set: { email: false, updatedAt: sql`now()` } });
}
