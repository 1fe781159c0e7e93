/**
 * Accept a quote (issue 33), in ONE transaction with the gig's row locked (two accepts on a gig
 * take turns; the database keeps one accepted quote per gig besides): the quote 'Accepted', the
 * hire recorded as Mark as Hired records it (reviews/hires.ts), every other open quote of the
 * gig 'Not chosen', and the events: quote.accepted to the chosen digger (with the live updates
 * of every thread it changed), quote.not-chosen to every other digger who bought the lead and is
 * not marked hired. Only the gig's client (403 for the digger, the 404 page for anyone else);
 * the quote open and not expired; never on a lead refunded in full.
 */
import { and, eq, ne, notExists, sql } from "drizzle-orm";
import { QUOTE_ANSWERS, QUOTE_MESSAGES, quoteChoiceSchema, quotedPrice } from "#core/quotes.ts";
import type { Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerProfiles, hires, leadPurchases, quotes } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { recordHire } from "../reviews/hires.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { THREAD } from "./access.ts";
import { decidableQuote } from "./open-quote.ts";
import { quotePrice } from "./quote-price.ts";
import { threadLead, type ThreadLead } from "./thread-lead.ts";

type Services = Pick<AppServices, "db" | "emit">;

export async function acceptQuote(services: Services, userId: string, threadId: string, quoteIdInput: unknown): Promise<{ success: string }> {
  const { db, emit } = services;
  try {
    return await db.transaction(async (tx) => {
      const lead = await threadLead(tx, userId, threadId, "client", true);
      const quote = await decidableQuote(tx, lead, quoteIdInput);
      if (lead.refunded) throw new AppError("conflict", QUOTE_ANSWERS.refunded);
      await tx.update(quotes).set({ status: "accepted", decidedAt: sql`now()` }).where(eq(quotes.id, quote.id));
      // Hired as Mark as Hired hires: a digger already hired stays hired once. The 'marked as hired' notice is this accept's.
      await recordHire(tx, emit, lead.gigId, lead.diggerId);
      const notChosen = await tx
        .update(quotes)
        .set({ status: "not_chosen", decidedAt: sql`now()` })
        .where(and(eq(quotes.gigId, lead.gigId), eq(quotes.status, "open"), ne(quotes.id, quote.id)))
        .returning({ threadId: quotes.threadId });
      await emit(tx, {
        kind: "quote.accepted",
        quoteId: quote.id,
        gigId: lead.gigId,
        threadId: lead.threadId,
        notChosenThreadIds: notChosen.map((row) => row.threadId),
        diggerUserId: lead.diggerUserId,
        clientFirstName: lead.clientFirstName,
        gigTitle: lead.gigTitle,
        price: quotedPrice(quotePrice(quote)),
      });
      const others = await otherBuyersNotHired(tx, lead);
      if (others.length > 0) await emit(tx, { kind: "quote.not-chosen", gigId: lead.gigId, gigTitle: lead.gigTitle, diggerUserIds: others });
      return { success: QUOTE_MESSAGES.accepted };
    });
  } catch (error) {
    // The database's own rule, should an accept ever pass the gig's lock: one accepted quote per gig.
    if (isUniqueViolation(error, "quotes_one_accepted_key")) throw new AppError("conflict", QUOTE_ANSWERS.alreadyAccepted, { cause: error });
    throw error;
  }
}

/** Every other digger with a completed purchase of the gig, not marked hired for it: their user ids. */
async function otherBuyersNotHired(tx: Transaction, lead: ThreadLead): Promise<string[]> {
  const rows = await tx
    .select({ userId: diggerProfiles.userId })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(
      and(
        eq(leadPurchases.gigId, lead.gigId),
        eq(leadPurchases.status, "completed"),
        ne(leadPurchases.diggerId, lead.diggerId),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(hires)
            .where(and(eq(hires.gigId, leadPurchases.gigId), eq(hires.diggerId, leadPurchases.diggerId))),
        ),
      ),
    );
  return rows.map((row) => row.userId);
}


export const acceptThreadQuote = defineOperation({
  access: THREAD,
  input: quoteChoiceSchema,
  run: ({ services, user, thread, input }) => acceptQuote(services, user.id, thread.id, input.quoteId),
});
