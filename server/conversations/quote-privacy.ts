/**
 * Quotes in the account purge (issue 32's privacy rule, applied to issue 33's records): the
 * quote stays with the other party, as the thread does, but without the purged account's words.
 * A digger's quotes keep their type, prices and dates (the client's record of what was offered
 * and, when accepted, agreed) and lose what is included and their line items' descriptions; a
 * client's decline reasons go.
 */
import { eq, inArray } from "drizzle-orm";
import { QUOTE_MESSAGES } from "#core/quotes.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, quoteLineItems, quotes } from "../db/schema.ts";

/** In the purge's transaction, before the account's gigs and profile are purged. */
export async function purgeQuotesOf(tx: Transaction, userId: string): Promise<void> {
  const written = tx
    .select({ id: quotes.id })
    .from(quotes)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, quotes.diggerId))
    .where(eq(diggerProfiles.userId, userId));
  await tx.update(quotes).set({ included: QUOTE_MESSAGES.deleted }).where(inArray(quotes.id, written));
  await tx.update(quoteLineItems).set({ description: QUOTE_MESSAGES.deleted }).where(inArray(quoteLineItems.quoteId, written));
  const received = tx.select({ id: gigs.id }).from(gigs).where(eq(gigs.clientId, userId));
  await tx.update(quotes).set({ declineReason: null }).where(inArray(quotes.gigId, received));
}
