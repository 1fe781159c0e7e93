/**
 * The test app with the tests' push service (push-service.ts) as its push peer: the app's own
 * push client, trusting that service's test certificate as well, and devices turned on through
 * /account as a browser would. The service listens on 127.0.0.1, which no production server
 * takes or connects to: PUSH_SERVICE_TEST_HOSTS names it (`testHosts` adds more).
 */
import { afterAll, beforeAll } from "vitest";
import { createPushClient } from "../../server/push/push-service-client.ts";
import type { TestUser } from "./accounts.ts";
import { createTestApp, type TestApp } from "./app.ts";
import {
  startPushService,
  subscriptionForm,
  type BrowserSubscription,
  type PushService,
  type ReceivedPush,
} from "./push-service.ts";
import { testCertificate } from "./tls-certificate.ts";

export interface PushTestApp {
  app: TestApp;
  pushService: PushService;
  /** A device of `user` on the test push service, turned on through /account. */
  deviceOf(user: TestUser): Promise<BrowserSubscription>;
  /** What that device received, in order. */
  receivedBy(subscription: BrowserSubscription): ReceivedPush[];
  close(): Promise<void>;
}

export async function createPushTestApp({ testHosts = [] }: { testHosts?: string[] } = {}): Promise<PushTestApp> {
  const app = await createTestApp({ PUSH_SERVICE_TEST_HOSTS: ["127.0.0.1", ...testHosts].join(",") });
  const pushService = await startPushService(app.config.push!.publicKey);
  app.services.push?.close();
  app.services.push = createPushClient(app.config.push!, {
    extraCa: testCertificate().cert,
    testHosts: app.config.pushServiceTestHosts,
  });
  return {
    app,
    pushService,
    async deviceOf(user) {
      const subscription = pushService.subscribe();
      const response = await user.client.post(
        "/account",
        subscriptionForm(subscription),
      );
      if (response.status !== 200)
        throw new Error(`turning a device on answered ${response.status}`);
      return subscription;
    },
    receivedBy: (subscription) =>
      pushService.received.filter((p) => p.subscription === subscription),
    async close() {
      await app.close();
      app.services.push?.close();
      await pushService.close();
    },
  };
}

/**
 * The push test app of this test file: made before its tests, closed after them. Its fields are
 * read inside the tests (or a `beforeAll` declared after this call).
 */
export function pushTestAppOfThisFile(options: Parameters<typeof createPushTestApp>[0] = {}): PushTestApp {
  let made: PushTestApp | undefined;
  beforeAll(async () => {
    made = await createPushTestApp(options);
  });
  afterAll(() => made?.close());
  const current = () => {
    if (!made)
      throw new Error(
        "the push test app is made before the tests: read it inside them",
      );
    return made;
  };
  return {
    get app() {
      return current().app;
    },
    get pushService() {
      return current().pushService;
    },
    deviceOf: (user) => current().deviceOf(user),
    receivedBy: (subscription) => current().receivedBy(subscription),
    close: () => current().close(),
  };
}
