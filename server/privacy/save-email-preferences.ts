/** /account's E-mail preferences form: promotional e-mail on or off (the switch, email-preferences.ts). */
import { emailPreferencesSchema } from "#core/privacy-schemas.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { saveEmailPreferences } from "./email-preferences.ts";

export const saveAccountEmailPreferences = defineOperation({
  access: ACCOUNT_FORM,
  input: emailPreferencesSchema,
  run: ({ services: { db }, user, input }) => saveEmailPreferences(db, user.id, input),
});
