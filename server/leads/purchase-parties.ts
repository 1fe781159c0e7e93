/**
 * The parties of a lead purchase, joined once here (issue 31): the purchase's gig, the client
 * who posted it (their account, `clientUser`), the digger who bought it (`diggerProfiles`) and
 * the digger's account (`diggerUser`). Every foreign key on the way is NOT NULL, so the inner
 * joins never drop a purchase.
 *
 *   withPurchaseParties(db.select({ title: gigs.title, email: clientUser.email }).from(leadPurchases).$dynamic())
 *
 * The query must already read `lead_purchases` (from it, or joined to a refund or an issue).
 * `withGigAndClient` joins only the gig and its client, for a list whose digger is known.
 */
import { eq } from "drizzle-orm";
import { alias, type PgSelect } from "drizzle-orm/pg-core";
import { diggerProfiles, gigs, leadPurchases, users } from "../db/schema.ts";

/** The account of the client whose gig it is. */
export const clientUser = alias(users, "client_user");
/** The account of the digger who bought. */
export const diggerUser = alias(users, "digger_user");

export function withPurchaseParties<T extends PgSelect>(query: T) {
  return withGigAndClient(query)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .innerJoin(diggerUser, eq(diggerUser.id, diggerProfiles.userId));
}

/**
 * Only the gig and its client: for a list of one digger's purchases (My Leads), whose digger is
 * known. PostgreSQL never drops an inner join, even one nothing reads, and planning the two
 * digger joins more than doubled My Leads' planning time (2.4 -> 0.8 ms without them, bench/results/history.md).
 */
export function withGigAndClient<T extends PgSelect>(query: T) {
  return query.innerJoin(gigs, eq(gigs.id, leadPurchases.gigId)).innerJoin(clientUser, eq(clientUser.id, gigs.clientId));
}

/** What a list of someone's purchases shows of each (the operator's user page, the data export). */
export const purchaseSummary = {
  id: leadPurchases.id,
  gigId: leadPurchases.gigId,
  gigTitle: gigs.title,
  amountPaidCents: leadPurchases.amountPaidCents,
  status: leadPurchases.status,
  createdAt: leadPurchases.createdAt,
};
