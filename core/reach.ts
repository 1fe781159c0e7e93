/**
 * How to reach me (issue 34): one row per group of events, each with an E-mail and a Push
 * choice, kept per user (`reach_preferences`, migration 0036; a missing row is both on). The
 * event path (server/events/) reads them for every notice it sends.
 */
import { z } from "zod";

export const REACH_GROUPS = ["messages", "quotes", "visits", "lead-alerts", "purchases", "account"] as const;
export type ReachGroup = (typeof REACH_GROUPS)[number];

export const REACH_GROUP_LABELS: Record<ReachGroup, string> = {
  messages: "New messages",
  quotes: "Quotes and decisions",
  visits: "Visits",
  "lead-alerts": "Instant lead alerts",
  purchases: "Purchases of my leads and issues",
  account: "Account and moderation notices",
};

/** Who has the row: instant alerts are diggers', purchases of one's leads are clients'. */
export const REACH_GROUP_AUDIENCE: Record<ReachGroup, "everyone" | "digger" | "client"> = {
  messages: "everyone",
  quotes: "everyone",
  visits: "everyone",
  "lead-alerts": "digger",
  purchases: "client",
  account: "everyone",
};

/** Groups whose every e-mail a person must not miss: the E-mail box is ticked and cannot be cleared. */
export const ALWAYS_EMAILED: ReadonlySet<ReachGroup> = new Set(["account"]);

/** A push's title when the event gives only its bell line (the line is the body). */
export const REACH_PUSH_TITLES: Record<ReachGroup, string> = {
  messages: "New message",
  quotes: "Quotes and decisions",
  visits: "Visits",
  "lead-alerts": "New lead",
  purchases: "Your gigs",
  account: "Your account",
};

/** New messages and instant lead alerts wake the device (Web Push `Urgency: high`). */
export const URGENT_GROUPS: ReadonlySet<ReachGroup> = new Set(["messages", "lead-alerts"]);

export interface ReachChoice {
  email: boolean;
  push: boolean;
}
export type ReachPreferences = Record<ReachGroup, ReachChoice>;

export const DEFAULT_REACH: ReachChoice = { email: true, push: true };

export const REACH_MESSAGES = {
  saved: "Your notification choices are saved.",
  alwaysEmailed: "Some e-mail always goes, whatever you choose here: account and security notices, issue deadlines, refunds and receipts.",
  pushNeedsDevice: "Turn on notifications on this device (above) to choose Push.",
} as const;

/** A ticked box: "on"; an unticked one is absent. Anything else is not a box of ours. */
const box = z
  .literal("on", { error: "Choose on or off" })
  .optional()
  .transform((value) => value === "on");

/**
 * The table's form: `email.<group>` and `push.<group>` boxes. `push` is "shown" when the Push
 * column was in the form (a device is on): otherwise the saved Push choices are kept.
 */
export const reachPreferencesSchema = z.object({
  ...Object.fromEntries(REACH_GROUPS.flatMap((group) => [[`email.${group}`, box] as const, [`push.${group}`, box] as const])),
  push: z
    .literal("shown", { error: "Unknown form" })
    .optional()
    .transform((value) => value === "shown"),
}) as unknown as z.ZodType<{ push: boolean } & Record<`${"email" | "push"}.${ReachGroup}`, boolean>>;
