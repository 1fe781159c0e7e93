/**
 * Recipients an event's declaration reads in its transaction (registry.ts's `to`), where who
 * is told is a rule of the notices themselves rather than of the operation.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, hires, leadPurchases, quotes, users } from "../db/schema.ts";
import type { Recipient } from "./declaration.ts";

/**
 * Of a filled gig's buyers, those to tell: not the ones an accepted quote already told of the
 * outcome (issue 33: its digger, and every other buyer not marked hired, told 'not chosen'),
 * so nobody gets a second e-mail about it.
 */
export async function filledGigRecipients(tx: Transaction, gigId: string, buyerUserIds: readonly string[]): Promise<Recipient[]> {
  if (buyerUserIds.length === 0) return [];
  const told = await tx
    .select({ userId: diggerProfiles.userId })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(
      and(
        eq(leadPurchases.gigId, gigId),
        inArray(diggerProfiles.userId, [...buyerUserIds]),
        sql`exists (select 1 from ${quotes} where ${quotes.gigId} = ${leadPurchases.gigId} and ${quotes.status} = 'accepted' and (${quotes.diggerId} = ${leadPurchases.diggerId} or not exists (select 1 from ${hires} where ${hires.gigId} = ${leadPurchases.gigId} and ${hires.diggerId} = ${leadPurchases.diggerId})))`,
      ),
    );
  const skipped = new Set(told.map((row) => row.userId));
  return buyerUserIds.filter((userId) => !skipped.has(userId)).map((userId) => ({ userId }));
}

/**
 * Of a visit's parties, those to tell (issue 50): not a suspended account, which must not learn
 * when and where a visit is (its visits are cancelled with the suspension), nor a deleted one.
 */
export async function visitRecipients(tx: Transaction, userIds: readonly string[]): Promise<Recipient[]> {
  const active = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...userIds]), isNull(users.suspendedAt), isNull(users.deletedAt)));
  const ids = new Set(active.map((row) => row.id));
  return userIds.filter((id) => ids.has(id)).map((userId) => ({ userId }));
}
