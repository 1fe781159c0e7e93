/**
 * A test app whose push client reaches the test push service (push-service.ts), and a user's
 * device on it, turned on as the browser does.
 */
import { expect } from "vitest";
import { createPushClient } from "../../server/push/push-service-client.ts";
import type { TestUser } from "./accounts.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { startPushService, subscriptionForm, type BrowserSubscription, type PushService } from "./push-service.ts";
import { testCertificate } from "./tls-certificate.ts";

export async function startAppWithPush(): Promise<{ app: TestApp; pushService: PushService }> {
  const app = await createTestApp();
  const pushService = await startPushService(app.config.push!.publicKey);
  // The app's own client, trusting the test push service's certificate as well.
  app.services.push?.close();
  app.services.push = createPushClient(app.config.push!, { extraCa: testCertificate().cert });
  return { app, pushService };
}

export async function closeAppWithPush(app: TestApp | undefined, pushService: PushService | undefined): Promise<void> {
  await app?.close();
  app?.services.push?.close();
  await pushService?.close();
}

/** A device of `user` on the test push service, turned on through /account. */
export async function pushDeviceOf(pushService: PushService, user: TestUser): Promise<BrowserSubscription> {
  const subscription = pushService.subscribe();
  expect((await user.client.post("/account", subscriptionForm(subscription))).status).toBe(200);
  return subscription;
}

/** What the test push service took for `subscription`. */
export const pushesTo = (pushService: PushService, subscription: BrowserSubscription) => pushService.received.filter((p) => p.subscription === subscription);
