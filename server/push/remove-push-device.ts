/** /account's Remove: one of the user's own devices (`removePushDevice`, devices.ts). */
import { removePushDeviceSchema } from "#core/push-schemas.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { removePushDevice } from "./devices.ts";

export const removeAccountPushDevice = defineOperation({
  access: ACCOUNT_FORM,
  input: removePushDeviceSchema,
  run: ({ services: { db }, user, input }) => removePushDevice(db, user.id, input),
});
