/**
 * Notifications on this device (issue 34) in Chromium: with the permission granted, Turn on
 * saves the device's subscription and lists it, Remove takes it off; a refused permission says
 * how to allow it again. Chromium's own push service cannot be reached here, so the page's
 * `PushManager.prototype.subscribe` is replaced by one that answers a subscription as a browser
 * would make it (keys made by the test, an https endpoint at push.example.test standing in for
 * a push service, which the server takes through PUSH_SERVICE_TEST_HOSTS in
 * playwright.config.ts): everything from the button to the database is real. Sending pushes is
 * tested against a real push service peer in tests/integration/push-send.test.ts.
 */
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { DEMO, signIn, toastSaying } from "./helpers.ts";
import { browserSubscription, SSRF_PUSH_ENDPOINTS } from "../support/push-service.ts";

test.use({ serviceWorkers: "allow" });

/** The card itself (the reach card beside it names it too). */
const pushCard = (page: Page) =>
  page.locator("[data-slot=card]").filter({ has: page.locator("[data-slot=card-title]", { hasText: "Notifications on this device" }) });

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
  const { endpoint, p256dh, auth } = browserSubscription(`https://push.example.test/push/${crypto.randomUUID()}`);
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

test("a subscription at a push service that is not a browser vendor's is refused, and nothing is saved (issue 45)", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  const { p256dh, auth } = browserSubscription(SSRF_PUSH_ENDPOINTS[0]);
  await stubPushSubscribe(page, { endpoint: SSRF_PUSH_ENDPOINTS[0], p256dh, auth });
  await signIn(page, DEMO.digger, DEMO.password, "/account");
  const card = page.locator("[data-slot=card]").filter({ hasText: "Notifications on this device" });
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("This browser's push service is not supported.").first()).toBeVisible();
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
  await page.reload();
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
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
  await expect(card.getByText("Notifications could not be turned on in this browser.")).toBeVisible();
  await expect(card.getByText(/Notifications are blocked for Digs & Gigs in this browser\. To allow them again/)).toBeVisible();
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
});

test("a subscription the browser refuses says 'Notifications could not be turned on in this browser.' and saves nothing (issue 47)", async ({ page, context, baseURL }, testInfo) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  // The push service refuses, as Chromium's does when it cannot register.
  await page.addInitScript(() => {
    PushManager.prototype.subscribe = async () => {
      throw new DOMException("Registration failed - push service error", "AbortError");
    };
    PushManager.prototype.getSubscription = async () => null;
  });
  await signIn(page, DEMO.digger, DEMO.password, "/account");
  const card = pushCard(page);
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(card.getByRole("status")).toHaveText("Notifications could not be turned on in this browser.");
  await expect(toastSaying(page, "Notifications could not be turned on in this browser.")).toBeVisible();
  await expect(card.getByRole("button", { name: "Turn on" })).toBeEnabled();
  await expect(card.getByText("No devices get notifications yet.")).toBeVisible();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await card.screenshot({ path: testInfo.outputPath(`push-failed-${width}.png`) });
  }
  expect(await axeViolations(page, { include: "main" })).toEqual([]);
});

test("on an iPhone in a Safari tab the card says how to get notifications: add the site to the Home Screen (issue 47)", async ({ browser }, testInfo) => {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  });
  const page = waitForHydration(await context.newPage());
  await signIn(page, DEMO.client, DEMO.password, "/account");
  const card = pushCard(page);
  await expect(card.getByText("On an iPhone, notifications work once you add Digs & Gigs to your Home Screen: tap Share, then Add to Home Screen.")).toBeVisible();
  await expect(card.getByRole("button", { name: "Turn on" })).toHaveCount(0);
  await card.screenshot({ path: testInfo.outputPath("push-iphone-375.png") });
  await context.close();
});
