/**
 * The account page (/account) as operations (decision 0044): its cards' data, and one
 * operation for each of its forms (`intent`). Each form's work stays in its area (auth's
 * passwords and two-factor, privacy, reach, alerts, push); these declare who may send it and
 * its schema, which the route adapter parses the form with.
 */
import { changePasswordSchema, passwordConfirmationSchema, twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { leadAlertsInput, leadAlertsSchema } from "#core/lead-alerts.ts";
import { deleteAccountSchema, emailPreferencesSchema } from "#core/privacy-schemas.ts";
import { pushSubscriptionSchema, removePushDeviceSchema } from "#core/push-schemas.ts";
import { reachPreferencesSchema } from "#core/reach.ts";
import { LEAD_ALERTS_SAVE } from "../alerts/access.ts";
import { leadAlertsCard, saveLeadAlertPreferences } from "../alerts/settings.ts";
import { signedIn, withRequest } from "../guards.ts";
import { changePassword } from "../sign-in/passwords.ts";
import { disableTwoFactor, enableTwoFactor, makeBackupCodes, verifyTwoFactorCode } from "../sign-in/two-factor.ts";
import { defineOperation } from "../operation.ts";
import { pushDevicesCard, removePushDevice, turnOnPush } from "../push/devices.ts";
import { reachCard } from "../reach/card.ts";
import { saveReachPreferences } from "../reach/preferences.ts";
import { deleteAccount } from "./delete-account.ts";
import { promotionalEmailEnabled, saveEmailPreferences } from "./email-preferences.ts";
import { exportUserData } from "./export.ts";

/** The page: a visitor is sent to sign in with the page's own message. */
export const ACCOUNT_PAGE = withRequest(signedIn({ signedOut: { message: "Please sign in to view your account" } }));
/** The page's forms: a signed-in user (a visitor is sent to sign in and back). */
export const ACCOUNT_FORM = withRequest(signedIn());

export const accountPage = defineOperation({
  access: ACCOUNT_PAGE,
  async run({ services: { db, config }, user, sessionId }) {
    const [promotionalEmail, leadAlerts, pushDevices] = await Promise.all([
      promotionalEmailEnabled(db, user.id),
      leadAlertsCard(db, user),
      pushDevicesCard(db, config, user.id, sessionId),
    ]);
    const reach = await reachCard(db, user, pushDevices);
    return { user, promotionalEmail, leadAlerts, pushDevices, reach };
  },
});

/** Download my data: the signed-in user's data (export.ts) as a JSON file. */
export const downloadAccountData = defineOperation({
  access: withRequest(signedIn({ signedOut: { message: "Please sign in to download your data" } })),
  async run({ services: { db }, user, logger }): Promise<Response> {
    const exported = await exportUserData(db, user.id);
    logger.info({ userId: user.id }, "account data exported");
    return new Response(JSON.stringify(exported, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="digs-and-gigs-data-${exported.exportedAt.slice(0, 10)}.json"`,
        "Cache-Control": "no-store",
      },
    });
  },
});

export const changeAccountPassword = defineOperation({
  access: ACCOUNT_FORM,
  input: changePasswordSchema,
  run: ({ authApi, input }) => changePassword(authApi, input),
});

export const startTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  input: passwordConfirmationSchema,
  run: ({ authApi, input }) => enableTwoFactor(authApi, input),
});

export const confirmTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  input: twoFactorCodeSchema,
  run: ({ authApi, input }) => verifyTwoFactorCode(authApi, "totp", input),
});

export const turnOffTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  input: passwordConfirmationSchema,
  run: ({ authApi, input }) => disableTwoFactor(authApi, input),
});

export const newBackupCodes = defineOperation({
  access: ACCOUNT_FORM,
  input: passwordConfirmationSchema,
  run: ({ authApi, input }) => makeBackupCodes(authApi, input),
});

export const saveAccountEmailPreferences = defineOperation({
  access: ACCOUNT_FORM,
  input: emailPreferencesSchema,
  run: ({ services: { db }, user, input }) => saveEmailPreferences(db, user.id, input),
});

export const saveAccountReach = defineOperation({
  access: ACCOUNT_FORM,
  input: reachPreferencesSchema,
  run: ({ services: { db }, user, input }) => saveReachPreferences(db, user.id, input),
});

export const saveAccountLeadAlerts = defineOperation({
  access: LEAD_ALERTS_SAVE,
  input: leadAlertsSchema,
  // The categories are one field sent once per box ticked.
  fields: leadAlertsInput,
  run: ({ services: { db }, diggerId, input }) => saveLeadAlertPreferences(db, diggerId, input),
});

export const turnOnAccountPush = defineOperation({
  access: ACCOUNT_FORM,
  // A local http:// push service only under test.
  input: ({ services: { config } }) => pushSubscriptionSchema({ allowLocalHttp: config.nodeEnv === "test" }),
  run: ({ services: { db, config }, user, sessionId, userAgent, input }) => turnOnPush(db, config, { userId: user.id, sessionId, userAgent }, input),
});

export const removeAccountPushDevice = defineOperation({
  access: ACCOUNT_FORM,
  input: removePushDeviceSchema,
  run: ({ services: { db }, user, input }) => removePushDevice(db, user.id, input),
});

export const deleteMyAccount = defineOperation({
  access: ACCOUNT_FORM,
  // The account's own address, typed to confirm.
  input: ({ user }) => deleteAccountSchema(user.email),
  run: (context) => deleteAccount(context, context.authApi, context.user),
});
