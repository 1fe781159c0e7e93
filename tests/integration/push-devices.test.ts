/**
 * Notifications on this device (issue 34): /account keeps a device's push subscription for the
 * signed-in user and the session that turned it on, lists the user's devices, removes one of
 * them (never another user's), refuses a subscription that is not one, caps devices at 10 in
 * the database, and a device goes with its session (sign-out) and with the account.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PUSH_DEVICES, PUSH_MESSAGES } from "../../core/push-schemas.ts";
import { pushSubscriptions, sessions } from "../../server/db/schema.ts";
import { signUpAs, TEST_PASSWORD, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml } from "../support/leads.ts";
import { browserSubscription, subscriptionForm } from "../support/push-service.ts";
import { SessionClient } from "../support/session-client.ts";

const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const pushEndpoint = () => `https://push.example.test/send/${crypto.randomUUID()}`;
const devicesOf = (user: TestUser) => app.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));

/** Posts the Turn on button's fields, from a browser with this user agent. */
async function turnOn(user: TestUser, fields: Record<string, string>, userAgent = ANDROID_CHROME): Promise<Response> {
  return user.client.send("/account", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl, "user-agent": userAgent },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("turning notifications on for a device", () => {
  it("keeps the subscription for the user and this session, and lists the device on /account", async () => {
    const user = await signUpAs(app, "consumer");
    const subscription = browserSubscription(pushEndpoint());
    const response = await turnOn(user, subscriptionForm(subscription));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(PUSH_MESSAGES.turnedOn);

    const [device] = await devicesOf(user);
    const [session] = await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(device).toMatchObject({ endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth, device: "Chrome on Android", sessionId: session!.id, lastUsedAt: null });

    const page = decodeHtml(await (await user.client.get("/account")).text());
    expect(page).toContain("Notifications on this device");
    expect(page).toContain("Chrome on Android");
    expect(page).toContain("This device");
    // The keys and the endpoint stay on the server.
    expect(page).not.toContain(subscription.endpoint);
    expect(page).not.toContain(subscription.auth);
  });

  it("takes a device over when it is turned on again: by the same user, or by another account signed in on it", async () => {
    const [first, second] = [await signUpAs(app, "consumer"), await signUpAs(app, "digger")];
    const subscription = browserSubscription(pushEndpoint());
    expect((await turnOn(first, subscriptionForm(subscription))).status).toBe(200);
    expect((await turnOn(first, subscriptionForm(subscription))).status).toBe(200);
    expect(await devicesOf(first)).toHaveLength(1);
    expect((await turnOn(second, subscriptionForm(subscription))).status).toBe(200);
    expect(await devicesOf(first)).toHaveLength(0);
    expect(await devicesOf(second)).toHaveLength(1);
  });

  it.each([
    ["a plain-http endpoint elsewhere than this machine", { endpoint: "http://push.example.test/send/1" }],
    ["an endpoint that is no address", { endpoint: "not a url" }],
    ["a javascript: endpoint", { endpoint: "javascript:alert(1)" }],
    ["a public key of the wrong size", { p256dh: Buffer.alloc(33, 4).toString("base64url") }],
    ["a public key that is not base64url", { p256dh: "B+/=" + "A".repeat(83) }],
    ["an auth secret of the wrong size", { auth: Buffer.alloc(12).toString("base64url") }],
    ["no auth secret", { auth: "" }],
  ])("refuses %s and keeps nothing", async (_name, change) => {
    const user = await signUpAs(app, "consumer");
    const response = await turnOn(user, { ...subscriptionForm(browserSubscription(pushEndpoint())), ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(PUSH_MESSAGES.badSubscription);
    expect(await devicesOf(user)).toHaveLength(0);
  });

  it("takes a plain-http push service on this machine in tests (the local push service)", async () => {
    const user = await signUpAs(app, "consumer");
    expect((await turnOn(user, subscriptionForm(browserSubscription("http://127.0.0.1:9/push/1")))).status).toBe(200);
  });

  it(`keeps at most ${MAX_PUSH_DEVICES} devices per user, a limit the database enforces`, async () => {
    const user = await signUpAs(app, "consumer");
    const subscriptions = Array.from({ length: MAX_PUSH_DEVICES }, () => browserSubscription(pushEndpoint()));
    for (const subscription of subscriptions) expect((await turnOn(user, subscriptionForm(subscription))).status).toBe(200);
    const eleventh = await turnOn(user, subscriptionForm(browserSubscription(pushEndpoint())));
    expect(eleventh.status).toBe(409);
    expect(await eleventh.text()).toContain("You can turn notifications on for at most 10 devices. Remove one first.");
    // A device already on may be turned on again.
    expect((await turnOn(user, subscriptionForm(subscriptions[0]!))).status).toBe(200);
    expect(await devicesOf(user)).toHaveLength(MAX_PUSH_DEVICES);

    // Straight into the database, past the form: refused all the same.
    const [row] = await devicesOf(user);
    await expect(
      app.database.db.insert(pushSubscriptions).values({ ...row!, id: crypto.randomUUID(), endpoint: pushEndpoint() }),
    ).rejects.toThrow();
    expect(await devicesOf(user)).toHaveLength(MAX_PUSH_DEVICES);
  });
});

describe("removing a device", () => {
  it("removes one's own device, and never another user's (not found, and it stays)", async () => {
    const [owner, other] = [await signUpAs(app, "consumer"), await signUpAs(app, "consumer")];
    await turnOn(owner, subscriptionForm(browserSubscription(pushEndpoint())));
    const [device] = await devicesOf(owner);

    const refused = await other.client.post("/account", { intent: "push-remove", deviceId: device!.id });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain(PUSH_MESSAGES.notFound);
    expect(await devicesOf(owner)).toHaveLength(1);

    const removed = await owner.client.post("/account", { intent: "push-remove", deviceId: device!.id });
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain(PUSH_MESSAGES.removed);
    expect(await devicesOf(owner)).toHaveLength(0);
  });

  it("refuses a visitor who is not signed in", async () => {
    const owner = await signUpAs(app, "consumer");
    await turnOn(owner, subscriptionForm(browserSubscription(pushEndpoint())));
    const [device] = await devicesOf(owner);
    const visitor = await app.request("/account", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl },
      body: new URLSearchParams({ intent: "push-remove", deviceId: device!.id }).toString(),
      redirect: "manual",
    });
    expect(visitor.status).toBe(302);
    expect(await devicesOf(owner)).toHaveLength(1);
  });
});

describe("a device goes with its session and with the account", () => {
  it("is deleted when the session that turned it on signs out, and only that session's", async () => {
    const user = await signUpAs(app, "consumer");
    await turnOn(user, subscriptionForm(browserSubscription(pushEndpoint())));
    // The same person on a second device (a session of its own).
    const laptop = await signUpAsAgain(user);
    await turnOn(laptop, subscriptionForm(browserSubscription(pushEndpoint())), "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15");
    expect((await devicesOf(user)).map((d) => d.device).sort()).toEqual(["Chrome on Android", "Safari on macOS"]);

    expect((await laptop.client.post("/sign-out", {})).status).toBe(302);
    expect((await devicesOf(user)).map((d) => d.device)).toEqual(["Chrome on Android"]);
  });

  it("is deleted with the account", async () => {
    const user = await signUpAs(app, "consumer");
    await turnOn(user, subscriptionForm(browserSubscription(pushEndpoint())));
    const deleted = await user.client.post("/account", { intent: "delete-account", confirmEmail: user.email });
    expect(deleted.status).toBe(302);
    expect(await devicesOf(user)).toHaveLength(0);
  });
});

describe("without VAPID keys (production without VAPID_*)", () => {
  it("hides the card and turns nothing on", async () => {
    const user = await signUpAs(app, "consumer");
    const keys = app.config.push;
    try {
      app.config.push = null;
      expect(decodeHtml(await (await user.client.get("/account")).text())).not.toContain("Notifications on this device");
      expect((await turnOn(user, subscriptionForm(browserSubscription(pushEndpoint())))).status).toBe(404);
      expect(await devicesOf(user)).toHaveLength(0);
    } finally {
      app.config.push = keys;
    }
  });
});

/** The same account signed in again from another client: a second session. */
async function signUpAsAgain(user: TestUser): Promise<TestUser> {
  const client = new SessionClient(app);
  const response = await client.post("/auth", { intent: "sign-in", email: user.email, password: TEST_PASSWORD });
  expect(response.status).toBe(302);
  return { ...user, client };
}
