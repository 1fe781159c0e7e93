/**
 * Sending pushes (issue 34), end to end through the job queue: a device turned on at /account
 * with a subscription a browser would make (tests/support/push-service.ts), `pushToUser` in an
 * event's transaction, the `push.send` job, `web-push`'s encryption and VAPID signature, our
 * pooled HTTPS client, and a local push service over https (a test certificate) that checks the
 * VAPID JWT against the app's public key and decrypts the payload with the device's private key.
 */
import { createECDH } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pushSubscriptions } from "../../server/db/schema.ts";
import { createPushClient } from "../../server/push/push-service-client.ts";
import { pushToUser, PUSH_TTL_SECONDS, type PushMessage } from "../../server/push/send.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import type { TestApp } from "../support/app.ts";
import { pushTestAppOfThisFile } from "../support/push-app.ts";
import { jobsSettled } from "../support/jobs.ts";
import type { PushService } from "../support/push-service.ts";
import { testCertificate } from "../support/tls-certificate.ts";

const pushing = pushTestAppOfThisFile();
const { deviceOf, receivedBy } = pushing;
let app: TestApp;
let pushService: PushService;
beforeAll(() => void ({ app, pushService } = pushing));

const devicesOf = (user: TestUser) => app.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));

/** An event's transaction that pushes `message` to `user`: how many devices it went to. */
const push = (user: TestUser, message: PushMessage) =>
  app.database.db.transaction((tx) => pushToUser(tx, app.services.jobs, user.id, message));

describe("pushToUser and the push.send job", () => {
  it("pushes to every device of the user, encrypted for each, with the title, body, link, TTL and urgency", async () => {
    const user = await signUpAs(app, "digger");
    const [phone, laptop] = [await deviceOf(user), await deviceOf(user)];
    const message = { title: "New lead: Fix a leaking tap", body: "Plumbing · Austin, TX", link: "/gig/123", urgency: "high" } as const;
    expect(await push(user, message)).toBe(2);

    await vi.waitFor(() => expect([...receivedBy(phone), ...receivedBy(laptop)]).toHaveLength(2), { timeout: 30_000 });
    for (const device of [phone, laptop]) {
      expect(receivedBy(device)[0]).toMatchObject({
        message: { title: message.title, body: message.body, link: message.link },
        urgency: "high",
        ttl: String(PUSH_TTL_SECONDS),
        encoding: "aes128gcm",
      });
    }
    expect(pushService.refused).toEqual([]);
    await vi.waitFor(async () => expect((await devicesOf(user)).every((d) => d.lastUsedAt !== null)).toBe(true));
  });

  it("sends normal urgency unless asked, and only to that user's devices", async () => {
    const [user, other] = [await signUpAs(app, "consumer"), await signUpAs(app, "consumer")];
    const [mine, theirs] = [await deviceOf(user), await deviceOf(other)];
    await push(user, { title: "A digger bought your lead", body: "Ace Plumbing", link: "/my-gigs" });
    await vi.waitFor(() => expect(receivedBy(mine)).toHaveLength(1), { timeout: 30_000 });
    expect(receivedBy(mine)[0]!.urgency).toBe("normal");
    await jobsSettled(app.database.db, "push.send");
    expect(receivedBy(theirs)).toEqual([]);
  });

  it("pushes nothing to a user without a device, and nothing once the device is removed", async () => {
    const user = await signUpAs(app, "consumer");
    expect(await push(user, { title: "Nothing", body: "to nobody", link: "/" })).toBe(0);
    const device = await deviceOf(user);
    const [row] = await devicesOf(user);
    expect((await user.client.post("/account", { intent: "push-remove", deviceId: row!.id })).status).toBe(200);
    expect(await push(user, { title: "Nothing", body: "to nobody", link: "/" })).toBe(0);
    await jobsSettled(app.database.db, "push.send");
    expect(receivedBy(device)).toEqual([]);
  });

  it("enqueues nothing when the event's transaction rolls back", async () => {
    const user = await signUpAs(app, "consumer");
    const device = await deviceOf(user);
    await expect(
      app.database.db.transaction(async (tx) => {
        await pushToUser(tx, app.services.jobs, user.id, { title: "Rolled back", body: "never sent", link: "/" });
        throw new Error("the event failed");
      }),
    ).rejects.toThrow("the event failed");
    await jobsSettled(app.database.db, "push.send");
    expect(receivedBy(device)).toEqual([]);
  });

  it("is a real check: the push service refuses a push signed with other VAPID keys", async () => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const stranger = createPushClient({ publicKey: ecdh.getPublicKey("base64url"), privateKey: Buffer.concat([Buffer.alloc(32 - ecdh.getPrivateKey().length), ecdh.getPrivateKey()]).toString("base64url"), subject: "mailto:someone@example.test" }, { extraCa: testCertificate().cert, testHosts: app.config.pushServiceTestHosts });
    try {
      const subscription = pushService.subscribe();
      expect(await stranger.send(subscription, { title: "Forged", body: "not ours", link: "/" }, { urgency: "normal", ttlSeconds: 60 })).toBe(403);
      expect(pushService.refused.splice(0)).toEqual(["another application server's key"]);
      expect(receivedBy(subscription)).toEqual([]);
    } finally {
      stranger.close();
    }
  });

  it.each([410, 404])("deletes the subscription when the push service answers %i", async (status) => {
    const user = await signUpAs(app, "consumer");
    const [gone, kept] = [await deviceOf(user), await deviceOf(user)];
    pushService.answer(gone, status);
    await push(user, { title: "Your issue report was approved", body: "Fix a leaking tap", link: "/my-leads" });
    await vi.waitFor(() => expect(receivedBy(kept)).toHaveLength(1), { timeout: 30_000 });
    await vi.waitFor(async () => expect((await devicesOf(user)).map((d) => d.endpoint)).toEqual([kept.endpoint]), { timeout: 30_000 });
  });
});
