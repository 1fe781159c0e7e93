import type { Config } from "../config.ts";
import type { PaymentProvider } from "./provider.ts";
import { createStripeProvider } from "./stripe-provider.ts";
import { createTestProvider } from "./test-provider.ts";

export function createPaymentProvider(config: Config): PaymentProvider {
  return config.payments.provider === "stripe"
    ? createStripeProvider(config.payments)
    : createTestProvider(config.publicUrl);
}
