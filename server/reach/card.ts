/** The account page's How to reach me table (app/features/account/reach-card.tsx): its rows and choices. */
import { REACH_GROUP_AUDIENCE, REACH_GROUPS } from "#core/reach.ts";
import type { Database } from "../db/client.ts";
import type { PushDevicesCard } from "../push/devices.ts";
import { reachPreferencesOf } from "./preferences.ts";

export async function reachCard(db: Database, user: { id: string; userType: string }, pushDevices: PushDevicesCard | null) {
  const role = user.userType === "digger" ? "digger" : "client";
  return {
    preferences: await reachPreferencesOf(db, user.id),
    groups: REACH_GROUPS.filter((group) => REACH_GROUP_AUDIENCE[group] === "everyone" || REACH_GROUP_AUDIENCE[group] === role),
    push: !pushDevices ? ("hidden" as const) : pushDevices.devices.length === 0 ? ("no-device" as const) : ("on" as const),
  };
}
