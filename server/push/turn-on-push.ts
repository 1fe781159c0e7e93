/** /account's Turn on for this device: the browser's push subscription kept for this session (`turnOnPush`, devices.ts). */
import { pushSubscriptionSchema } from "#core/push-schemas.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { turnOnPush } from "./devices.ts";

export const turnOnAccountPush = defineOperation({
  access: ACCOUNT_FORM,
  // Only the browser vendors' push services (and the tests' own, PUSH_SERVICE_TEST_HOSTS).
  input: ({ services: { config } }) => pushSubscriptionSchema({ testHosts: config.pushServiceTestHosts }),
  run: ({ services: { db, config }, user, sessionId, userAgent, input }) => turnOnPush(db, config, { userId: user.id, sessionId, userAgent }, input),
});
