/** /checkout/{sessionId}, the built-in test checkout's Pay or Cancel (test-checkout.ts): Pay runs the same fulfilment as a webhook. */
import { z } from "zod";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { completeCheckout, endCheckout } from "./fulfilment.ts";
import { backWithError, CHECKOUT_MESSAGES, type Done, endExpired, findCheckout, type Services } from "./test-checkout.ts";

/** Pay or Cancel: completes (as a webhook would) or ends the checkout, then back to the gig. */
async function submitTestCheckout(services: Services, userId: string | null, sessionId: string, intent: string | undefined): Promise<Done> {
  const checkout = await findCheckout(services, userId, sessionId);
  const gigPath = `/gig/${checkout.gigId}`;
  if (checkout.status !== "pending") return { goTo: gigPath };
  if (checkout.expired) throw await endExpired(services, sessionId, checkout);
  if (intent === "pay") {
    const outcome = await completeCheckout(services, sessionId, null);
    if (outcome === "unavailable_refunded") throw await backWithError(services, checkout, CHECKOUT_MESSAGES.unavailable);
    if (outcome === "full_refunded") throw await backWithError(services, checkout, CHECKOUT_MESSAGES.full);
    return { goTo: `${gigPath}?payment=success` };
  }
  await endCheckout(services, sessionId);
  return { goTo: `${gigPath}?payment=cancelled` };
}

/** Pay (`intent=pay`); any other intent, or none, is Cancel. */
const answerSchema = z.object({ intent: z.string().optional() });

/** /checkout/{sessionId}, Pay or Cancel. */
export const testCheckoutAnswer = defineOperation({
  access: anyone,
  input: answerSchema,
  async run({ services, user, params, input }) {
    return submitTestCheckout(services, user?.id ?? null, params.sessionId ?? "", input.intent);
  },
});
