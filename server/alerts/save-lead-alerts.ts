/** /account's Lead alerts card, saved (`saveLeadAlertPreferences`, settings.ts): a digger with a profile only. */
import { leadAlertsInput, leadAlertsSchema } from "#core/lead-alerts.ts";
import { defineOperation } from "../operation.ts";
import { LEAD_ALERTS_SAVE } from "./access.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { saveLeadAlertPreferences } from "./settings.ts";

export const saveAccountLeadAlerts = defineOperation({
  access: LEAD_ALERTS_SAVE,
  input: leadAlertsSchema,
  // The categories are one field sent once per box ticked.
  fields: leadAlertsInput,
  run: ({ services: { db, config }, diggerId, input }) => saveLeadAlertPreferences(db, diggerId, input, phoneVerificationOn(config)),
});
