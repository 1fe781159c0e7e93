/**
 * POST /api/webhooks/stripe: Stripe's events, verified against the raw body before anything
 * is read from them. A forged or altered event gets 400 and changes nothing; a failure on our
 * side answers 500 so that Stripe delivers the event again.
 */
import type { Context } from "hono";
import { InvalidEventError } from "../payments/provider.ts";
import type { AppServices } from "../context.ts";
import { completeCheckout, endCheckout } from "./fulfilment.ts";

export function stripeWebhookHandler(services: AppServices) {
  return async (c: Context) => {
    const rawBody = await c.req.text();
    let event;
    try {
      event = services.payments.parseEvent(rawBody, c.req.header("stripe-signature") ?? null);
    } catch (error) {
      if (error instanceof InvalidEventError) return c.json({ error: "Invalid signature" }, 400);
      throw error;
    }
    if (event.type === "checkout.paid") await completeCheckout(services, event.sessionId, event.paymentId);
    else if (event.type === "checkout.ended") await endCheckout(services, event.sessionId);
    return c.json({ received: true });
  };
}
