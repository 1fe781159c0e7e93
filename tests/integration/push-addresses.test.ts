/**
 * The addresses the push client connects to (issue 45, finding 1): only public ones, checked on
 * the address the connection is made to. The tests' push service listens on 127.0.0.1, and
 * this file's app takes both `127.0.0.1` and `localhost` as push service hosts
 * (PUSH_SERVICE_TEST_HOSTS): the address is connected to because the setting names it, the
 * name `localhost` is refused at connect although it resolves to that same service, since a
 * name's DNS answer may change after any earlier look-up. Whether anything connected is the
 * push service's own count of connections.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pushes, pushSubscriptions } from "../../server/db/schema.ts";
import { createPushClient } from "../../server/push/push-service-client.ts";
import { pushToUser } from "../../server/push/send.ts";
import { signUpAs } from "../support/accounts.ts";
import type { TestApp } from "../support/app.ts";
import { jobOf } from "../support/jobs.ts";
import { pushTestAppOfThisFile } from "../support/push-app.ts";
import { subscriptionForm, type PushService } from "../support/push-service.ts";
import { testCertificate } from "../support/tls-certificate.ts";

const pushing = pushTestAppOfThisFile({ testHosts: ["localhost"] });
let app: TestApp;
let pushService: PushService;
beforeAll(() => void ({ app, pushService } = pushing));

const message = { title: "New message from Ana", body: "Are you free on Monday?", link: "/messages" };
const options = { urgency: "normal", ttlSeconds: 60 } as const;

describe("the push client", () => {
  it("connects to the tests' push service at 127.0.0.1 only because PUSH_SERVICE_TEST_HOSTS names that address", async () => {
    const subscription = pushService.subscribe();
    const client = (testHosts: string[]) => createPushClient(app.config.push!, { extraCa: testCertificate().cert, testHosts });
    const [named, unnamed] = [client(["127.0.0.1"]), client([])];
    try {
      expect(await named.send(subscription, message, options)).toBe(201);
      const before = pushService.connections();
      await expect(unnamed.send(subscription, message, options)).rejects.toThrow("refused to connect to 127.0.0.1: 127.0.0.1 is not a public address");
      expect(pushService.connections()).toBe(before);
    } finally {
      named.close();
      unnamed.close();
    }
  });

  it.each([
    ["https://[::1]:9445/push", "::1"],
    ["https://[::ffff:127.0.0.1]:9445/push", "::ffff:7f00:1"],
    ["https://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["https://10.0.0.1/push", "10.0.0.1"],
    ["https://0.0.0.0:9444/push", "0.0.0.0"],
    ["https://[fd00::1]/push", "fd00::1"],
    ["https://[fe80::1]/push", "fe80::1"],
  ])("refuses %s before connecting", async (endpoint, address) => {
    const client = createPushClient(app.config.push!, { testHosts: ["127.0.0.1"] });
    try {
      const target = { ...pushService.subscribe(), endpoint };
      await expect(client.send(target, message, options)).rejects.toThrow(`${address} is not a public address`);
    } finally {
      client.close();
    }
  });

  it("refuses a name whose DNS answer is loopback at connect, even when the name is a test host", async () => {
    const client = createPushClient(app.config.push!, { extraCa: testCertificate().cert, testHosts: app.config.pushServiceTestHosts });
    try {
      const subscription = pushService.subscribe(pushService.origin.replace("127.0.0.1", "localhost"));
      const before = pushService.connections();
      await expect(client.send(subscription, message, options)).rejects.toThrow(/refused to connect to localhost: (127\.0\.0\.1|::1) is not a public address/);
      expect(pushService.connections()).toBe(before);
      expect(pushService.received.filter((p) => p.subscription === subscription)).toEqual([]);
    } finally {
      client.close();
    }
  });
});

describe("a device whose push service is a name for this machine", () => {
  it("is taken through the test setting, and its pushes still never connect: the job fails, nothing arrives", async () => {
    const user = await signUpAs(app, "consumer");
    const subscription = pushService.subscribe(pushService.origin.replace("127.0.0.1", "localhost"));
    expect((await user.client.post("/account", subscriptionForm(subscription))).status).toBe(200);
    const before = pushService.connections();
    await app.database.db.transaction((tx) => pushToUser(tx, app.services.jobs, user.id, message));
    const [row] = await app.database.db
      .select({ id: pushes.id })
      .from(pushes)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushes.subscriptionId))
      .where(eq(pushSubscriptions.userId, user.id));
    await vi.waitFor(async () => expect((await jobOf(app.database.db, "push.send", "pushId", row!.id))?.state).toBe("retry"), { timeout: 30_000 });
    expect(pushService.connections()).toBe(before);
    expect(pushService.received.filter((p) => p.subscription.endpoint === subscription.endpoint)).toEqual([]);
    expect(app.logs.some((line) => JSON.stringify(line).includes("is not a public address"))).toBe(true);
  });
});
