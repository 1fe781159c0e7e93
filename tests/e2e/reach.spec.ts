/**
 * How to reach me (issue 34) in Chromium: the table on /account saves a choice and shows it
 * after a reload; the always-e-mailed row cannot be cleared. And a notification's click:
 * the service worker's `notificationclick` opens the linked page, or focuses it when it is
 * already open.
 *
 * How the click is made: Chromium has no automation API (nor a DevTools protocol command) to
 * click a shown notification, so the test shows a real one from the worker
 * (`registration.showNotification`, permission granted), takes it back with
 * `registration.getNotifications()`, and dispatches a `notificationclick` NotificationEvent
 * carrying it inside the service worker, through Playwright's handle on the worker
 * (`context.serviceWorkers()[0].evaluate`). The worker's own listener runs
 * (pwa/service-worker.ts). A dispatched event is not trusted, and Chromium lets only a trusted
 * click open or focus a window: the test replaces the browser's `clients.openWindow` and
 * `WindowClient.prototype.focus` in the worker with recorders, and checks which the listener
 * called, with which page (an open tab of the link is focused, else the link is opened, and a
 * link to another site opens the home page), and that the notification was closed.
 */
import { expect, test } from "./fixtures.ts";
import { DEMO, signIn, toastSaying } from "./helpers.ts";

test("the How to reach me table saves a choice, and a reload shows it", async ({ page }) => {
  await signIn(page, DEMO.digger, DEMO.password, "/account");
  const table = page.locator("[data-slot=card]").filter({ hasText: "How to reach me" });
  const quotes = table.getByRole("checkbox", { name: "E-mail: Quotes and decisions" });
  const account = table.getByRole("checkbox", { name: "E-mail: Account and moderation notices" });
  await expect(quotes).toBeChecked();
  await expect(account).toBeChecked();
  await expect(account).toBeDisabled();
  await expect(table.getByText("Turn on notifications on this device (above) to choose Push.")).toBeVisible();

  await quotes.click();
  await expect(quotes).not.toBeChecked();
  await table.getByRole("button", { name: "Save Choices" }).click();
  await expect(toastSaying(page, "Your notification choices are saved.")).toBeVisible();
  await page.reload();
  await expect(table.getByRole("checkbox", { name: "E-mail: Quotes and decisions" })).not.toBeChecked();
  await expect(table.getByRole("checkbox", { name: "E-mail: New messages" })).toBeChecked();
  await expect(table.getByRole("checkbox", { name: "E-mail: Account and moderation notices" })).toBeChecked();

  // Put it back for the other specs that read the demo digger's e-mail.
  await table.getByRole("checkbox", { name: "E-mail: Quotes and decisions" }).click();
  await table.getByRole("button", { name: "Save Choices" }).click();
  await expect(toastSaying(page, "Your notification choices are saved.")).toBeVisible();
});

// The headless shell grants no notification permission to a service worker: the full browser.
test.describe("a notification's click", { tag: "@full-chromium" }, () => {
  test.use({ serviceWorkers: "allow" });

  test("opens the linked page, or focuses it when it is open; never another site", async ({ page, context, baseURL }) => {
    await context.grantPermissions(["notifications"], { origin: baseURL });
    await page.goto("/");
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
    await page.goto("/browse-gigs");

    /** Shows a notification for `link` from the worker, dispatches its click there, and answers what the worker opened or focused. */
    const click = (link: string) =>
      worker.evaluate(async (target) => {
        // The worker's globals (the DOM library here has no WebWorker types).
        const sw = self as unknown as {
          registration: ServiceWorkerRegistration;
          clients: { openWindow: (url: string | URL) => Promise<unknown> };
          dispatchEvent: (event: Event) => boolean;
        };
        const { WindowClient, NotificationEvent } = globalThis as unknown as {
          WindowClient: { prototype: { focus: () => Promise<unknown>; url: string } };
          NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
        };
        const calls: string[] = [];
        sw.clients.openWindow = async (url) => {
          calls.push(`open ${String(url)}`);
          return null;
        };
        WindowClient.prototype.focus = async function (this: { url: string }) {
          calls.push(`focus ${this.url}`);
          return this;
        };
        await sw.registration.showNotification("Test notice", { body: "Click me", data: { link: target }, tag: target });
        const [notification] = await sw.registration.getNotifications({ tag: target });
        if (!notification) throw new Error("no notification shown");
        try {
          sw.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
        } catch {
          // waitUntil refuses an event the browser did not make, after the handler chose its window.
        }
        for (let i = 0; i < 50 && calls.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
        const closed = (await sw.registration.getNotifications({ tag: target })).length === 0;
        return { calls, closed };
      }, link);

    expect(await click("/browse-gigs")).toEqual({ calls: [`focus ${baseURL}/browse-gigs`], closed: true });
    expect(await click("/my-leads")).toEqual({ calls: [`open ${baseURL}/my-leads`], closed: true });
    // The worker falls back to its own root, "/".
    expect(await click("https://example.com/phish")).toEqual({ calls: ["open /"], closed: true });
  });
});
