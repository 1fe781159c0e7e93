/** Who may set lead alerts: a digger with a profile (alerts are about leads they could buy). */
import { LEAD_ALERT_MESSAGES } from "#core/lead-alerts.ts";
import { digger } from "../guards.ts";

/** The Lead alerts card's Save on /account: refused (403) for anyone else; a digger without a profile goes to make one. */
export const LEAD_ALERTS_SAVE = digger({
  userType: { type: "digger", message: "Only diggers can set lead alerts" },
  diggerProfile: { message: LEAD_ALERT_MESSAGES.noProfile, redirectTo: "/digger-registration" },
});
