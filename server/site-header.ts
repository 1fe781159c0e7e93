/**
 * The site header's data on every page (the root loader, app/root.tsx): the signed-in user,
 * their unread notifications (the bell), unread threads (Messages) and, for a digger, their
 * own profile's id (My Profile, or Complete Profile until there is one) and area (their Browse
 * Gigs link filters by it). One statement reads them all (own-figures.ts), once a request: the
 * page's digger rule reads the same. Signed-in pages are never page-cached
 * (server/page-cache.ts), so nobody's count is served to another.
 * It also hands back the session's refreshed cookies (`sessionCookies`), which the root sets on
 * every page's response: no route reads the session itself.
 */
import type { SessionUser } from "#core/session-user.ts";
import { anyone, withRequest } from "./guards.ts";
import type { Database } from "./db/client.ts";
import { areaOf } from "./gigs/browse.ts";
import { defineOperation, type Access } from "./operation.ts";
import { ownFigures } from "./own-figures.ts";

export interface SiteHeaderCounts {
  unreadNotifications: number;
  unreadThreads: number;
  /** The digger's own profile; null for a client and for a digger without one. */
  myProfileId: string | null;
  /** The digger's own area (their profile's city): their Browse Gigs link filters by it. */
  myArea: string | null;
}

const NOTHING_TO_COUNT: SiteHeaderCounts = { unreadNotifications: 0, unreadThreads: 0, myProfileId: null, myArea: null };

async function siteHeaderCounts(db: Database, request: Request, user: Pick<SessionUser, "id" | "userType">): Promise<SiteHeaderCounts> {
  const figures = await ownFigures(db, request, user.id);
  const isDigger = user.userType === "digger";
  return {
    unreadNotifications: figures.unreadNotifications,
    unreadThreads: figures.unreadThreads,
    myProfileId: isDigger ? figures.profileId : null,
    myArea: isDigger && figures.profileLocation ? areaOf(figures.profileLocation) : null,
  };
}

/** `anyone`, and the header also learns the request, which its figures are read once for (own-figures.ts). */
const HEADER_ACCESS: Access<{ user: SessionUser | null; request: Request }> = {
  async resolve(context, route) {
    return { ...(await anyone.resolve(context, route)), request: route.request };
  },
};

/** Everyone's header: nothing to count for a visitor. `sessionCookies` are Set-Cookie values, never page data. */
export const siteHeader = defineOperation({
  access: withRequest(HEADER_ACCESS),
  async run({ user, request, services, sessionCookies }): Promise<SiteHeaderCounts & { user: SessionUser | null; sessionCookies: string[] }> {
    const counts = user ? await siteHeaderCounts(services.db, request, user) : NOTHING_TO_COUNT;
    return { user, ...counts, sessionCookies };
  },
});
