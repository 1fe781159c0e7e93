/**
 * /account's Time zone form (issue 47): the zone every time the account reads is written in,
 * one of the zones this server knows (the list the page offers, `timeZoneChoices`). The row's
 * change makes the account's session cookies read again (migration 0041), so the next page
 * already shows the new zone.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { readerZone } from "../auth/time-zone.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";

export const TIME_ZONE_MESSAGES = {
  saved: "Time zone saved.",
  unknown: "Choose a time zone from the list.",
} as const;

const timeZoneSchema = z.object({
  timeZone: z
    .string({ error: TIME_ZONE_MESSAGES.unknown })
    .refine((zone) => readerZone(zone) !== null, TIME_ZONE_MESSAGES.unknown),
});

/**
 * The card's data: the account's zone (null: none told yet), the site's default it then reads
 * in, and every zone this server's ICU knows (made here: the browser formats no time).
 */
export function timeZoneChoices(config: Pick<Config, "defaultTimeZone">, timeZone: string | null) {
  const zones = Intl.supportedValuesOf("timeZone");
  // Some runtimes list "UTC" under another name; the default and the saved zone are always offered.
  const extra = [config.defaultTimeZone, timeZone].filter((zone): zone is string => zone !== null && !zones.includes(zone));
  return { timeZone, defaultTimeZone: config.defaultTimeZone, zones: [...new Set(extra), ...zones] };
}

async function saveTimeZone(db: Database, userId: string, timeZone: string): Promise<void> {
  await db.update(users).set({ timeZone }).where(eq(users.id, userId));
}

export const saveAccountTimeZone = defineOperation({
  access: ACCOUNT_FORM,
  input: timeZoneSchema,
  run: ({ services: { db }, user, input }) => saveTimeZone(db, user.id, input.timeZone),
});
