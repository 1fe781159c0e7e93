import Stripe from "stripe";
import { CHECKOUT_LIFETIME_MS, InvalidEventError, type PaymentProvider } from "./provider.ts";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** A stand-in for Stripe's API (tests); unset: api.stripe.com. */
  apiUrl?: string;
  /** How long one request to Stripe may take; unset: 15 s. Tests of a hung API set it lower. */
  timeoutMs?: number;
  /** Retries of a failed request (network error, 409, 5xx); unset: 2. */
  maxNetworkRetries?: number;
}

/**
 * Stripe accepts an expires_at from 30 minutes to 24 hours after it creates the session, and
 * refuses exactly 30 minutes or 24 hours when our clock and its own disagree: the margin keeps
 * skew and the request's time inside those bounds. The checkout's lifetime is the spot's hold,
 * 30 minutes, so a session ends EXPIRY_MARGIN_S after its hold: a payment made in that margin
 * completes only if a spot is still free, and is refunded in full otherwise (fulfilment.ts,
 * docs/decisions/0019-buyer-cap-and-holds.md).
 */
export const EXPIRY_MARGIN_S = 5 * 60;
function expiresAt(now: number): number {
  const lifetime = Math.min(Math.max(CHECKOUT_LIFETIME_MS / 1000, 30 * 60 + EXPIRY_MARGIN_S), 24 * 60 * 60 - EXPIRY_MARGIN_S);
  return Math.floor(now / 1000) + lifetime;
}

export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: settings.maxNetworkRetries ?? 2,
    timeout: settings.timeoutMs ?? 15_000,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
      protocol: api.protocol === "https:" ? "https" : "http",
    }),
  });

  return {
    name: "stripe",

    async createCheckout(request) {
      const metadata = { purchaseId: request.purchaseId, gigId: request.gigId, diggerId: request.diggerId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          client_reference_id: request.purchaseId,
          metadata,
          payment_intent_data: { metadata },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: request.amountCents,
                product_data: { name: `Lead: ${request.gigTitle}`.slice(0, 250) },
              },
            },
          ],
          expires_at: expiresAt(Date.now()),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `checkout-${request.purchaseId}` },
      );
      return { sessionId: session.id, url: session.url };
    },

    async expireCheckout(sessionId) {
      // Stripe then sends checkout.session.expired, which cancels the pending purchase.
      await stripe.checkout.sessions.expire(sessionId);
    },

    parseEvent(rawBody, signature) {
      if (!signature) throw new InvalidEventError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch (error) {
        throw new InvalidEventError(error instanceof Error ? error.message : "Invalid signature");
      }
      switch (event.type) {
        case "checkout.session.completed":
        case "checkout.session.async_payment_succeeded": {
          const session = event.data.object;
          // A delayed payment method completes the session before the money arrives.
          if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") {
            return { type: "ignored", eventType: `${event.type} (${session.payment_status})` };
          }
          const paymentIntent = session.payment_intent;
          return {
            type: "checkout.paid",
            sessionId: session.id,
            paymentId: typeof paymentIntent === "string" ? paymentIntent : (paymentIntent?.id ?? null),
          };
        }
        case "checkout.session.expired":
        case "checkout.session.async_payment_failed":
          return { type: "checkout.ended", sessionId: event.data.object.id };
        default:
          return { type: "ignored", eventType: event.type };
      }
    },

    async refund(request) {
      if (!request.paymentId) throw new Error("The purchase has no Stripe payment to refund");
      const refund = await stripe.refunds.create(
        { payment_intent: request.paymentId, amount: request.amountCents },
        { idempotencyKey: request.idempotencyKey },
      );
      return { refundId: refund.id };
    },
  };
}
