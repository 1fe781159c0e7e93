/**
 * The built-in test checkout (design.md section 5): only with the test provider, only for the
 * digger whose pending purchase it is; anyone else, signed in or not, finds nothing (404). A
 * checkout ends unpaid after CHECKOUT_LIFETIME_MS, as a Stripe Checkout Session does. Its page
 * is view-test-checkout.ts, its Pay or Cancel answer-test-checkout.ts.
 */
import { and, eq, sql } from "drizzle-orm";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { CHECKOUT_LIFETIME_MS } from "../payments/provider.ts";
import type { AppServices } from "../context.ts";
import { whyNotForSale } from "./for-sale.ts";
import { endCheckout } from "./fulfilment.ts";
import { withPurchaseParties } from "./purchase-parties.ts";

export const CHECKOUT_MESSAGES = {
  notFound: "Checkout not found",
  unavailable: "This lead is no longer available. Your payment has been refunded in full.",
  full: "This lead is full. Your payment has been refunded in full.",
  expired: "This checkout has expired. Please start again.",
} as const;

export type Services = Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "emit" | "config">;

/** Where the browser goes once a checkout is over. */
export interface Done {
  goTo: string;
}

/** The pending checkout `sessionId` of user `userId`, or not found. */
export async function findCheckout(services: Services, userId: string | null, sessionId: string) {
  if (services.payments.name !== "test" || !userId) throw new AppError("not_found", CHECKOUT_MESSAGES.notFound);
  const [row] = await withPurchaseParties(
    services.db
      .select({
        gigId: gigs.id,
        userId: diggerProfiles.userId,
        gigTitle: gigs.title,
        amountCents: leadPurchases.amountPaidCents,
        status: leadPurchases.status,
        expired: sql<boolean>`${leadPurchases.createdAt} <= now() - make_interval(secs => ${CHECKOUT_LIFETIME_MS / 1000})`,
      })
      .from(leadPurchases)
      .$dynamic(),
  ).where(and(eq(leadPurchases.providerSessionId, sessionId), eq(diggerProfiles.userId, userId)));
  if (!row) throw new AppError("not_found", CHECKOUT_MESSAGES.notFound);
  return row;
}

type Checkout = Awaited<ReturnType<typeof findCheckout>>;

/**
 * Back to the gig with a message; to the list of gigs when the gig's page is gone for this
 * digger: its client deleted their account, or an operator took it down (the gig page shows a
 * withdrawn gig to its buyers only, and this payment was refunded).
 */
export async function backWithError(services: Services, { gigId }: Checkout, message: string): Promise<AppError> {
  const to = (await whyNotForSale(services.db, gigId)) === "gone" ? "/browse-gigs" : `/gig/${gigId}`;
  return new AppError("conflict", message, { redirectTo: to });
}

/** Ends an expired checkout; the error sends the browser back with 'This checkout has expired'. */
export async function endExpired(services: Services, sessionId: string, checkout: Checkout): Promise<AppError> {
  await endCheckout(services, sessionId);
  return backWithError(services, checkout, CHECKOUT_MESSAGES.expired);
}
