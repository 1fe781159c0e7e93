/**
 * The account page (/account) as an operation (decision 0044): its cards' data, each read by
 * the area that keeps it. Its forms are operations of those areas (see README.md).
 */
import { leadAlertsCard } from "../alerts/settings.ts";
import { defineOperation } from "../operation.ts";
import { accountPhoneCard } from "../phones/account-phone.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { promotionalEmailEnabled } from "../privacy/email-preferences.ts";
import { pushDevicesCard } from "../push/devices.ts";
import { reachCard } from "../reach/card.ts";
import { readerTime } from "../reader-time.ts";
import { ACCOUNT_PAGE } from "./access.ts";
import { timeZoneChoices } from "./save-time-zone.ts";

export const accountPage = defineOperation({
  access: ACCOUNT_PAGE,
  async run({ services, user, sessionId }) {
    const { db, config } = services;
    const time = readerTime(user.timeZone, config);
    const [promotionalEmail, leadAlerts, pushDevices, phone] = await Promise.all([
      promotionalEmailEnabled(db, user.id),
      leadAlertsCard(db, user, phoneVerificationOn(config)),
      pushDevicesCard(db, config, user.id, sessionId, time),
      accountPhoneCard(services, user.id),
    ]);
    const reach = await reachCard(db, user, pushDevices);
    return { user, promotionalEmail, leadAlerts, pushDevices, reach, phone, timeZone: timeZoneChoices(config, user.timeZone) };
  },
});
