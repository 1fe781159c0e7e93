/**
 * The account page (/account) as operations (decision 0044): its cards' data, and one
 * operation for each of its forms (`intent`). Each form's work stays in its area (auth's
 * passwords and two-factor, privacy, reach, alerts, push); these declare who may send it.
 */
import { LEAD_ALERTS_SAVE } from "../alerts/access.ts";
import { leadAlertsCard, saveLeadAlertPreferences } from "../alerts/settings.ts";
import { signedIn, withRequest } from "../auth/guards.ts";
import { changePassword } from "../auth/passwords.ts";
import { disableTwoFactor, enableTwoFactor, makeBackupCodes, verifyTwoFactorCode } from "../auth/two-factor.ts";
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

/** The form sent (an action always has one); each form's work parses it with its schema. */
const formOf = ({ form }: { form: FormData | null }): FormData => form ?? new FormData();

export const changeAccountPassword = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => changePassword(context.authApi, formOf(context)),
});

export const startTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => enableTwoFactor(context.authApi, formOf(context)),
});

export const confirmTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => verifyTwoFactorCode(context.authApi, "totp", formOf(context)),
});

export const turnOffTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => disableTwoFactor(context.authApi, formOf(context)),
});

export const newBackupCodes = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => makeBackupCodes(context.authApi, formOf(context)),
});

export const saveAccountEmailPreferences = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => saveEmailPreferences(context.services.db, context.user.id, formOf(context)),
});

export const saveAccountReach = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => saveReachPreferences(context.services.db, context.user.id, formOf(context)),
});

export const saveAccountLeadAlerts = defineOperation({
  access: LEAD_ALERTS_SAVE,
  run: (context) => saveLeadAlertPreferences(context.services.db, context.diggerId, formOf(context)),
});

export const turnOnAccountPush = defineOperation({
  access: ACCOUNT_FORM,
  run: ({ services: { db, config }, user, sessionId, userAgent, form }) =>
    turnOnPush(db, config, { userId: user.id, sessionId, userAgent }, formOf({ form })),
});

export const removeAccountPushDevice = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => removePushDevice(context.services.db, context.user.id, formOf(context)),
});

export const deleteMyAccount = defineOperation({
  access: ACCOUNT_FORM,
  run: (context) => deleteAccount(context, context.authApi, context.user, formOf(context)),
});
