/**
 * Notifications on this device (issue 34): /account keeps a device's push subscription for the
 * signed-in user and the session that turned it on, lists the user's devices, removes one of
 * them (never another user's), refuses a subscription that is not one, caps devices at 10 in
 * the database, and a device goes with its session (sign-out) and with the account. Only the
 * browser vendors' push services are taken (issue 45, finding 1), and another account takes a
 * device over only with its keys (finding 11).
 */
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PUSH_DEVICES, PUSH_MESSAGES } from "../../core/push-schemas.ts";
import { pushes, pushSubscriptions, sessions, users } from "../../server/db/schema.ts";
import { signUpAs, TEST_PASSWORD, type TestUser } from "../support/accounts.ts";
import { busCaughtUp } from "../support/bus.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml } from "../support/leads.ts";
import { browserSubscription, SSRF_PUSH_ENDPOINTS, subscriptionForm } from "../support/push-service.ts";
import { SessionClient } from "../support/session-client.ts";

const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** What Chrome's pushManager gives: an endpoint at Firebase Cloud Messaging. Nothing is pushed in this file. */
const pushEndpoint = () => `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`;
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

  it("writes when a device was added in the reader's zone (issue 47): Tokyo reads GMT+9", async () => {
    const user = await signUpAs(app, "consumer");
    await app.database.db.update(users).set({ timeZone: "Asia/Tokyo" }).where(eq(users.id, user.id));
    // The session's signed cookie learns of the change by a NOTIFY (decision 0053).
    await busCaughtUp(app);
    await turnOn(user, subscriptionForm(browserSubscription(pushEndpoint())));
    const page = decodeHtml(await (await user.client.get("/account")).text());
    expect(page).toMatch(/Added [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+9 · Last used never/);
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

  it("lets another account take a device over only with the subscription's own keys (issue 45, finding 11)", async () => {
    const [owner, intruder] = [await signUpAs(app, "consumer"), await signUpAs(app, "digger")];
    const subscription = browserSubscription(pushEndpoint());
    expect((await turnOn(owner, subscriptionForm(subscription))).status).toBe(200);

    // The endpoint with keys of the intruder's own making: refused, and the device stays the owner's.
    const forged = browserSubscription(subscription.endpoint);
    for (const keys of [subscriptionForm(forged), { ...subscriptionForm(forged), p256dh: subscription.p256dh }, { ...subscriptionForm(forged), auth: subscription.auth }]) {
      const refused = await turnOn(intruder, keys);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(PUSH_MESSAGES.badSubscription);
    }
    // Spelled otherwise (the host's capitals, the port said): the same endpoint, refused the same.
    const respelled = subscription.endpoint.replace("https://fcm.googleapis.com/", "https://FCM.GoogleAPIs.com:443/");
    expect((await turnOn(intruder, { ...subscriptionForm(forged), endpoint: respelled })).status).toBe(400);
    expect(await devicesOf(intruder)).toEqual([]);
    expect(await devicesOf(owner)).toMatchObject([{ endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth }]);

    // The owner's own browser turning it on again with new keys keeps it theirs.
    const renewed = browserSubscription(subscription.endpoint);
    expect((await turnOn(owner, subscriptionForm(renewed))).status).toBe(200);
    expect(await devicesOf(owner)).toMatchObject([{ p256dh: renewed.p256dh, auth: renewed.auth }]);
  });

  it("keeps the endpoint as the URL parser writes it", async () => {
    const user = await signUpAs(app, "consumer");
    const id = crypto.randomUUID();
    expect((await turnOn(user, subscriptionForm(browserSubscription(`  https://FCM.googleapis.com:443/fcm/send/${id}`)))).status).toBe(200);
    expect((await devicesOf(user)).map((d) => d.endpoint)).toEqual([`https://fcm.googleapis.com/fcm/send/${id}`]);
  });

  it.each([
    "https://fcm.googleapis.com/fcm/send/abc",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn",
    "https://web.push.apple.com/QGuQyavXutnMH",
    "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAD",
  ])("takes the browser vendors' push service at %s", async (endpoint) => {
    const user = await signUpAs(app, "consumer");
    expect((await turnOn(user, subscriptionForm(browserSubscription(`${endpoint}${crypto.randomUUID()}`)))).status).toBe(200);
    expect(await devicesOf(user)).toHaveLength(1);
  });

  // The third attack's endpoints (issue 45, finding 1), and hosts that only look like a vendor's.
  it.each([
    ...SSRF_PUSH_ENDPOINTS,
    "https://fcm.googleapis.com:8443/fcm/send/abc",
    "https://fcm.googleapis.com./fcm/send/abc",
    "https://evilfcm.googleapis.com/fcm/send/abc",
    "https://fcm.googleapis.com.attacker.example/fcm/send/abc",
    "https://push.apple.com/abc",
    "https://evilpush.apple.com/abc",
    "https://web.push.apple.com.attacker.example/abc",
    "https://notify.windows.com.attacker.example/w/",
    "https://push.example.test/send/abc",
  ])("refuses a push service that is not a browser vendor's: %s", async (endpoint) => {
    const user = await signUpAs(app, "consumer");
    const response = await turnOn(user, subscriptionForm(browserSubscription(endpoint)));
    expect(response.status).toBe(400);
    expect(decodeHtml(await response.text())).toContain("This browser's push service is not supported.");
    expect(await devicesOf(user)).toHaveLength(0);
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

  it("takes another push service only when PUSH_SERVICE_TEST_HOSTS names its host (the tests' own), on any port", async () => {
    const testing = await createTestApp({ PUSH_SERVICE_TEST_HOSTS: "127.0.0.1, push.example.test" }, { database: app.database });
    try {
      const user = await signUpAs(testing, "consumer");
      const on = (endpoint: string) =>
        user.client.send("/account", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: testing.config.publicUrl },
          body: new URLSearchParams(subscriptionForm(browserSubscription(endpoint))).toString(),
        });
      expect((await on(`https://127.0.0.1:9444/push/${crypto.randomUUID()}`)).status).toBe(200);
      expect((await on(`https://push.example.test/send/${crypto.randomUUID()}`)).status).toBe(200);
      for (const endpoint of ["https://localhost:4100/push", "https://10.0.0.1/", "http://127.0.0.1:9444/push"]) expect((await on(endpoint)).status, endpoint).toBe(400);
      expect(await devicesOf(user)).toHaveLength(2);
    } finally {
      await testing.close();
    }
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

describe("migration 0046", () => {
  it("removes the devices kept with a push service that is not a browser vendor's, with their waiting pushes", async () => {
    // Two users: the cap of 10 devices each holds for rows put straight into the table too.
    const [user, other] = [await signUpAs(app, "consumer"), await signUpAs(app, "consumer")];
    const sessionOf = async (u: TestUser) => (await app.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, u.id)))[0]!.id;
    const kept = [
      "https://fcm.googleapis.com/fcm/send/m1",
      "https://FCM.googleapis.com:443/fcm/send/m2",
      "https://updates.push.services.mozilla.com/wpush/v2/m3",
      "https://web.push.apple.com/m4",
      "https://wns2-by3p.notify.windows.com/w/?token=m5",
    ];
    const removed = [
      "https://127.0.0.1:9444/push/m6",
      "https://169.254.169.254/m7",
      "https://[::1]:9445/m8",
      "https://localhost:4100/m9",
      "http://fcm.googleapis.com/fcm/send/m10",
      "https://fcm.googleapis.com:8443/fcm/send/m11",
      "https://evilpush.apple.com/m12",
      "https://fcm.googleapis.com.attacker.example/m13",
      "https://fcm.googleapis.com\\@10.0.0.1/m14",
    ];
    // Straight into the table, as devices turned on before the allow-list were kept.
    for (const [owner, endpoints] of [[user, kept], [other, removed]] as const) {
      const sessionId = await sessionOf(owner);
      await app.database.db
        .insert(pushSubscriptions)
        .values(endpoints.map((endpoint) => ({ userId: owner.id, sessionId, endpoint, p256dh: "k", auth: "a", device: "Chrome on Linux" })));
    }
    const [device] = await devicesOf(other);
    await app.database.db.insert(pushes).values({ subscriptionId: device!.id, title: "t", body: "b", link: "/", urgency: "normal" });
    await app.database.db.execute(sql.raw(readFileSync(new URL("../../server/db/migrations/0046_push_vendor_services.sql", import.meta.url), "utf8")));
    expect((await devicesOf(user)).map((d) => d.endpoint).sort()).toEqual([...kept].sort());
    expect(await devicesOf(other)).toEqual([]);
    expect(await app.database.db.select().from(pushes).where(eq(pushes.subscriptionId, device!.id))).toEqual([]);
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
