/**
 * The site header's data on every page (the root loader, app/root.tsx): the signed-in user,
 * their unread notifications (the bell), unread threads (Messages) and, for a digger, their
 * own profile's id (My Profile, or Complete Profile until there is one) and area (their Browse
 * Gigs link filters by it). One statement reads them all; each count is capped like the bell's and comes from its partial index. Signed-in
 * pages are never page-cached (server/page-cache.ts), so nobody's count is served to another.
 * It also hands back the session's refreshed cookies (`sessionCookies`), which the root sets on
 * every page's response: no route reads the session itself.
 */
import { sql } from "drizzle-orm";
import type { SessionUser } from "#core/session-user.ts";
import { anyone, withRequest } from "./guards.ts";
import type { Database } from "./db/client.ts";
import { placeholder, preparedRows } from "./db/prepared.ts";
import { diggerProfiles, notifications, threads } from "./db/schema.ts";
import { areaOf } from "./gigs/browse.ts";
import { UNREAD_COUNT_CAP } from "./notifications/view-notifications.ts";
import { defineOperation } from "./operation.ts";

export interface SiteHeaderCounts {
  unreadNotifications: number;
  unreadThreads: number;
  /** The digger's own profile; null for a client and for a digger without one. */
  myProfileId: string | null;
  /** The digger's own area (their profile's city): their Browse Gigs link filters by it. */
  myArea: string | null;
}

/** The header's one statement (prepared: it runs on every signed-in page). */
const headerRow = preparedRows<{ notifications: number | string; threads: number | string; profile_id: string | null; location: string | null }>(
  "site_header",
  () => sql`select
      (select count(*) from (select 1 from ${notifications} where ${notifications.userId} = ${placeholder("userId")} and ${notifications.readAt} is null limit ${UNREAD_COUNT_CAP}) n) as notifications,
      (select count(*) from (
        (select 1 from ${threads} where ${threads.diggerUserId} = ${placeholder("userId")} and ${threads.lastMessageSeq} > ${threads.diggerReadSeq} limit ${UNREAD_COUNT_CAP})
        union all
        (select 1 from ${threads} where ${threads.clientId} = ${placeholder("userId")} and ${threads.lastMessageSeq} > ${threads.clientReadSeq} limit ${UNREAD_COUNT_CAP})
      ) t) as threads,
      profile.id as profile_id, profile.location
    from (select 1) one
    left join (select ${diggerProfiles.id} as id, ${diggerProfiles.location} as location from ${diggerProfiles} where ${diggerProfiles.userId} = ${placeholder("userId")}) profile on true`,
);

async function siteHeaderCounts(db: Database, user: Pick<SessionUser, "id" | "userType">): Promise<SiteHeaderCounts> {
  const isDigger = user.userType === "digger";
  const [row] = await headerRow(db, undefined, { userId: user.id });
  return {
    unreadNotifications: Number(row?.notifications ?? 0),
    unreadThreads: Math.min(Number(row?.threads ?? 0), UNREAD_COUNT_CAP),
    myProfileId: isDigger ? (row?.profile_id ?? null) : null,
    myArea: isDigger && row?.location ? areaOf(row.location) : null,
  };
}

const NOTHING_TO_COUNT: SiteHeaderCounts = { unreadNotifications: 0, unreadThreads: 0, myProfileId: null, myArea: null };

/** Everyone's header: nothing to count for a visitor. `sessionCookies` are Set-Cookie values, never page data. */
export const siteHeader = defineOperation({
  access: withRequest(anyone),
  async run({ user, services, sessionCookies }): Promise<SiteHeaderCounts & { user: SessionUser | null; sessionCookies: string[] }> {
    const counts = user ? await siteHeaderCounts(services.db, user) : NOTHING_TO_COUNT;
    return { user, ...counts, sessionCookies };
  },
});
