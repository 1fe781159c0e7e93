/**
 * Notifications on this device (issue 34) in Chromium: with the permission granted, Turn on
 * saves the device's subscription and lists it, Remove takes it off; a refused permission says
 * how to allow it again. Chromium's own push service cannot be reached here, so the page's
 * `PushManager.prototype.subscribe` is replaced by one that answers a subscription as a browser
 * would make it (keys made by the test, an https endpoint on this machine standing in for a
 * push service): everything from the button to the database is real. Sending pushes is tested
 * against a real push service peer in tests/integration/push-send.test.ts.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";
import { browserSubscription } from "../support/push-service.ts";

test.use({ serviceWorkers: "allow" });

/** Makes the page's push subscriptions answer this one (see above). */
async function stubPushSubscribe(page: Page, subscription: { endpoint: string; p256dh: string; auth: string }) {
  await page.addInitScript((s) => {
    const made = { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } };
    PushManager.prototype.subscribe = async function () {
      return { endpoint: s.endpoint, toJSON: () => made, unsubscribe: async () => true } as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => null;
  }, subscription);
}

test("Turn on saves this device's subscription, lists it, and Remove takes it off", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  const { endpoint, p256dh, auth } = browserSubscription(`https://127.0.0.1:9/push/${crypto.randomUUID()}`);
  await stubPushSubscribe(page, { endpoint, p256dh, auth });
  await signIn(page, DEMO.client, DEMO.password, "/account");

  const card = page.locator("[data-slot=card]").filter({ hasText: "Notifications on this device" });
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Notifications are on for this device.").first()).toBeVisible();
  const devices = card.getByRole("list", { name: "Devices with notifications on" });
  await expect(devices.getByRole("listitem")).toHaveCount(1);
  await expect(devices).toContainText("Chrome on Linux");
  await expect(devices).toContainText("This device");
  await expect(card.getByRole("button", { name: "Turn on" })).toHaveCount(0);

  await devices.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Device removed. It gets no more notifications.").first()).toBeVisible();
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
  await expect(card.getByRole("button", { name: "Turn on" })).toBeVisible();
});

test("a refused permission says how to allow it again, and saves nothing", async ({ page }) => {
  // Headless Chromium shows no prompt to refuse: the page's answer is set to "denied" as a
  // person's click on Block would make it.
  await page.addInitScript(() => {
    let permission: NotificationPermission = "default";
    Object.defineProperty(Notification, "permission", { get: () => permission });
    Notification.requestPermission = async () => (permission = "denied");
  });
  await signIn(page, DEMO.digger, DEMO.password, "/account");
  const card = page.locator("[data-slot=card]").filter({ hasText: "Notifications on this device" });
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(card.getByText(/Notifications are blocked for Digs & Gigs in this browser\. To allow them again/)).toBeVisible();
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
});
