/** /checkout/{sessionId}, the built-in test checkout's page (test-checkout.ts). */
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { type Done, endExpired, findCheckout, type Services } from "./test-checkout.ts";

/** The checkout page: what is bought at what price; or, for a checkout that is over, the gig. */
async function loadTestCheckout(
  services: Services,
  userId: string | null,
  sessionId: string,
): Promise<{ gigTitle: string; amountCents: number; goTo?: undefined } | Done> {
  const checkout = await findCheckout(services, userId, sessionId);
  if (checkout.status !== "pending") return { goTo: `/gig/${checkout.gigId}` };
  if (checkout.expired) throw await endExpired(services, sessionId, checkout);
  return { gigTitle: checkout.gigTitle, amountCents: checkout.amountCents };
}

/** /checkout/{sessionId}, the page: its digger's only (anyone else gets 404, never a sign-in redirect). */
export const testCheckoutPage = defineOperation({
  access: anyone,
  async run({ services, user, params }) {
    return loadTestCheckout(services, user?.id ?? null, params.sessionId ?? "");
  },
});
