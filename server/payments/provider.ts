/**
 * The one interface to card payments (design.md section 5): Stripe Checkout when Stripe is
 * configured, otherwise the built-in test checkout. Amounts are always computed by our
 * server; nothing here takes an amount from a browser.
 */
import { HOLD_MS } from "#core/lead-spots.ts";

/**
 * How long a checkout lasts: the spot's hold (core/lead-spots.ts, docs/decisions/0019). A
 * test checkout older than this can no longer be paid; Stripe is asked to expire its Checkout
 * Session then, or as soon after as Stripe's bounds allow (see stripe-provider.ts).
 */
export const CHECKOUT_LIFETIME_MS = HOLD_MS;

interface CheckoutRequest {
  purchaseId: string;
  gigId: string;
  diggerId: string;
  gigTitle: string;
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
}

interface CheckoutSession {
  sessionId: string;
  /** Where the browser goes to pay. */
  url: string | null;
}

type PaymentEvent =
  | { type: "checkout.paid"; sessionId: string; paymentId: string | null }
  | { type: "checkout.ended"; sessionId: string }
  | { type: "ignored"; eventType: string };

interface RefundRequest {
  paymentId: string | null;
  amountCents: number;
  /** The same key for every attempt of one refund: the provider refunds once. */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: "stripe" | "test";
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Ends an open checkout session so that it can no longer be paid (its gig was deleted).
   * Throws when the provider refuses (a session already paid, or the provider unreachable): a
   * payment that still arrives is refunded in full like any for a gone lead (fulfilment.ts).
   */
  expireCheckout(sessionId: string): Promise<void>;
  /** Verifies a provider's event on its raw body; throws InvalidEventError when it is not genuine. */
  parseEvent(rawBody: string, signature: string | null): PaymentEvent;
  refund(request: RefundRequest): Promise<{ refundId: string }>;
}

export class InvalidEventError extends Error {
  override name = "InvalidEventError";
}
