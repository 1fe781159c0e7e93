/** Phone verification runs only with a provider of text messages (config.sms): else no code is sent and no tick is shown. */
import type { Config } from "../config.ts";

export const phoneVerificationOn = (config: Pick<Config, "sms">): boolean => config.sms !== null;
