/** /account's How to reach me table, saved (`saveReachPreferences`, preferences.ts). */
import { reachPreferencesSchema } from "#core/reach.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { saveReachPreferences } from "./preferences.ts";

export const saveAccountReach = defineOperation({
  access: ACCOUNT_FORM,
  input: reachPreferencesSchema,
  run: ({ services: { db }, user, input }) => saveReachPreferences(db, user.id, input),
});
