/**
 * The built-in test checkout's page (design.md section 5): only with the test provider, only
 * for the digger whose pending purchase it is; anyone else, signed in or not, finds nothing
 * (404). Pay runs the same fulfilment as a webhook. A checkout ends unpaid after
 * CHECKOUT_LIFETIME_MS, as a Stripe Checkout Session does.
 */
import { and, eq, sql } from "drizzle-orm";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { anyone } from "../guards.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { CHECKOUT_LIFETIME_MS } from "../payments/provider.ts";
import type { AppServices } from "../context.ts";
import { whyNotForSale } from "./for-sale.ts";
import { completeCheckout, endCheckout } from "./fulfilment.ts";
import { withPurchaseParties } from "./purchase-parties.ts";

export const CHECKOUT_MESSAGES = {
  notFound: "Checkout not found",
  unavailable: "This lead is no longer available. Your payment has been refunded in full.",
  full: "This lead is full. Your payment has been refunded in full.",
  expired: "This checkout has expired. Please start again.",
} as const;

type Services = Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "emit" | "config">;

/** Where the browser goes once a checkout is over. */
export interface Done {
  goTo: string;
}

/** The pending checkout `sessionId` of user `userId`, or not found. */
async function findCheckout(services: Services, userId: string | null, sessionId: string) {
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
async function backWithError(services: Services, { gigId }: Checkout, message: string): Promise<AppError> {
  const to = (await whyNotForSale(services.db, gigId)) === "gone" ? "/browse-gigs" : `/gig/${gigId}`;
  return new AppError("conflict", message, { redirectTo: to });
}

/** Ends an expired checkout; the error sends the browser back with 'This checkout has expired'. */
async function endExpired(services: Services, sessionId: string, checkout: Checkout): Promise<AppError> {
  await endCheckout(services, sessionId);
  return backWithError(services, checkout, CHECKOUT_MESSAGES.expired);
}

/** The checkout page: what is bought at what price; or, for a checkout that is over, the gig. */
export async function loadTestCheckout(
  services: Services,
  userId: string | null,
  sessionId: string,
): Promise<{ gigTitle: string; amountCents: number; goTo?: undefined } | Done> {
  const checkout = await findCheckout(services, userId, sessionId);
  if (checkout.status !== "pending") return { goTo: `/gig/${checkout.gigId}` };
  if (checkout.expired) throw await endExpired(services, sessionId, checkout);
  return { gigTitle: checkout.gigTitle, amountCents: checkout.amountCents };
}

/** Pay or Cancel: completes (as a webhook would) or ends the checkout, then back to the gig. */
export async function submitTestCheckout(services: Services, userId: string | null, sessionId: string, form: FormData): Promise<Done> {
  const checkout = await findCheckout(services, userId, sessionId);
  const gigPath = `/gig/${checkout.gigId}`;
  if (checkout.status !== "pending") return { goTo: gigPath };
  if (checkout.expired) throw await endExpired(services, sessionId, checkout);
  if (form.get("intent") === "pay") {
    const outcome = await completeCheckout(services, sessionId, null);
    if (outcome === "unavailable_refunded") throw await backWithError(services, checkout, CHECKOUT_MESSAGES.unavailable);
    if (outcome === "full_refunded") throw await backWithError(services, checkout, CHECKOUT_MESSAGES.full);
    return { goTo: `${gigPath}?payment=success` };
  }
  await endCheckout(services, sessionId);
  return { goTo: `${gigPath}?payment=cancelled` };
}

/** /checkout/{sessionId}, the page: its digger's only (anyone else gets 404, never a sign-in redirect). */
export const testCheckoutPage = defineOperation({
  access: anyone,
  async run({ services, user, params }) {
    return loadTestCheckout(services, user?.id ?? null, params.sessionId ?? "");
  },
});

/** /checkout/{sessionId}, Pay or Cancel. */
export const testCheckoutAnswer = defineOperation({
  access: anyone,
  async run({ services, user, params, form }) {
    return submitTestCheckout(services, user?.id ?? null, params.sessionId ?? "", form ?? new FormData());
  },
});
