/**
 * The built-in test checkout (design.md section 5): no card, no outside service. A checkout
 * is a page of ours, /checkout/{sessionId}, whose Pay button runs the same fulfilment as
 * Stripe's webhook. Refunds are recorded in our refunds table and nowhere else.
 */
import { randomBytes } from "node:crypto";
import { InvalidEventError, type PaymentProvider } from "./provider.ts";

export function createTestProvider(publicUrl: string): PaymentProvider {
  return {
    name: "test",
    async createCheckout() {
      const sessionId = `test_cs_${randomBytes(18).toString("base64url")}`;
      return { sessionId, url: `${publicUrl}/checkout/${sessionId}` };
    },
    async expireCheckout() {
      // The test checkout has no session outside our database: its page reads the pending
      // purchase, which takes no payment past its hold, and a Pay for a deleted gig is
      // refunded in full (fulfilment.ts), so there is nothing to end here.
    },
    parseEvent() {
      throw new InvalidEventError("The test checkout sends no events");
    },
    async refund(request) {
      return { refundId: `test_re_${request.idempotencyKey}` };
    },
  };
}
