/**
 * The signed-in user's own figures: their unread notifications (the bell) and unread threads
 * (Messages), each capped like the bell's and read from its partial index, and their digger
 * profile's id and city. One statement, read at most once per request: the site header
 * (site-header.ts, the root loader) shows them and the digger rule (guards.ts `digger`) needs
 * the profile's id, in loaders that run side by side (issue 52: a round trip fewer on every
 * digger page).
 *
 * Once per React Router `Request`: a page's loaders share one, and the loaders that follow an
 * action get a new one (React Router makes it), so a figure read before an action's write is
 * never shown after it. An action under the digger rule reads the counts too, with the id: one
 * small statement either way. The statement keeps the header's name (`site_header`).
 */
import { sql } from "drizzle-orm";
import type { Database } from "./db/client.ts";
import { placeholder, preparedRows } from "./db/prepared.ts";
import { diggerProfiles, notifications, threads } from "./db/schema.ts";
import { UNREAD_COUNT_CAP } from "./notifications/view-notifications.ts";

export interface OwnFigures {
  unreadNotifications: number;
  unreadThreads: number;
  /** Their digger profile's id and city; null without one (a client, a digger who has not made it). */
  profileId: string | null;
  profileLocation: string | null;
}

/** The statement (prepared: it runs on every signed-in page). */
const figuresRow = preparedRows<{ notifications: number | string; threads: number | string; profile_id: string | null; location: string | null }>(
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

async function readOwnFigures(db: Database, userId: string): Promise<OwnFigures> {
  const [row] = await figuresRow(db, undefined, { userId });
  return {
    unreadNotifications: Number(row?.notifications ?? 0),
    unreadThreads: Math.min(Number(row?.threads ?? 0), UNREAD_COUNT_CAP),
    profileId: row?.profile_id ?? null,
    profileLocation: row?.location ?? null,
  };
}

const byRequest = new WeakMap<Request, { userId: string; figures: Promise<OwnFigures> }>();

/** The figures of user `userId` (the request's signed-in user), read once for `request`. */
export function ownFigures(db: Database, request: Request, userId: string): Promise<OwnFigures> {
  const known = byRequest.get(request);
  if (known?.userId === userId) return known.figures;
  const figures = readOwnFigures(db, userId);
  byRequest.set(request, { userId, figures });
  return figures;
}
