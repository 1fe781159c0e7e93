/**
 * `GET /messages/live`: the signed-in user's live events as Server-Sent Events (hub.ts).
 * Signed-in users only (401 otherwise); accounts with a confirmed e-mail and a thread only (204
 * No Content otherwise, Server-Sent Events' "do not reconnect"; admission.ts); their own events
 * only, at most `STREAMS_PER_USER` open in a process (429 past it); at LIVE_MAX_STREAMS in all,
 * or LIVE_MAX_STREAMS_PER_NETWORK from the client's network, an older stream of the largest
 * holder is closed to make room (hub.ts); none while the server shuts down (503). Mounted by
 * the app before compression and the page cache, and left out of the latency metrics.
 */
import type { Context } from "hono";
import { LIVE_SINCE_PARAM } from "#core/live-events.ts";
import type { LookupSession } from "../auth/session.ts";
import type { SessionVersions } from "../auth/session-versions.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { RETRY_AFTER_SECONDS } from "../health.ts";
import { networkCapsApply, networkOf } from "../security/network.ts";
import { mayHoldLiveStreams } from "./admission.ts";
import { STREAMS_PER_USER, type LiveHub } from "./hub.ts";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** The services it uses: `AppServices` (context.ts) names live/'s hub, so live/ does not name it back. */
export function liveStream(services: {
  lookupSession: LookupSession;
  sessionVersions: SessionVersions;
  live: LiveHub;
  db: Database;
  config: Pick<Config, "mode" | "networkLimitsOnLoopback">;
}) {
  const { lookupSession, sessionVersions, live, db, config } = services;
  live.start();
  return async (c: Context<{ Variables: { clientIp: string } }>) => {
    const headers = c.req.raw.headers;
    let session;
    let allowed;
    try {
      session = await lookupSession(headers);
      allowed = session.user !== null && (await mayHoldLiveStreams(db, session.user.id));
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return c.text("Please try again in a moment.", 503, { ...NO_STORE, "Retry-After": String(RETRY_AFTER_SECONDS) });
    }
    const { user, setCookies } = session;
    if (!user) return c.text("Please sign in to continue", 401, NO_STORE);
    const withCookies = (response: Response) => {
      for (const cookie of setCookies) response.headers.append("Set-Cookie", cookie);
      return response;
    };
    // Nothing to hear: 204 is how Server-Sent Events say "do not reconnect" (the page's hook
    // asks HEAD why a stream closed, and stops at a 204).
    if (!allowed) return withCookies(c.body(null, 204, NO_STORE));
    const streamHeaders = {
      "Content-Type": "text/event-stream; charset=utf-8",
      // The user's own (security/private-responses.ts), neither kept nor transformed (compressed,
      // buffered) by anything on the way.
      "Cache-Control": "private, no-store, no-transform",
      "X-Accel-Buffering": "no",
    };
    // A HEAD's body is never read: it would hold a stream open that nobody reads.
    if (c.req.method === "HEAD") return c.body(null, 200, streamHeaders);
    const sinceText = c.req.query(LIVE_SINCE_PARAM);
    const since = sinceText && /^\d{1,15}$/.test(sinceText) ? Number(sinceText) : undefined;
    const clientIp = c.get("clientIp");
    const opened = live.open(user.id, {
      reconnected: headers.has("last-event-id"),
      since,
      network: networkCapsApply(config, clientIp) ? networkOf(clientIp) : undefined,
      // Each check a request of its own for the session versions (`track`): the stream's request
      // began long ago, and a change heard since would make every check read the database.
      stillSignedIn: () => sessionVersions.track(async () => (await lookupSession(headers)).user?.id === user.id),
    });
    if ("refused" in opened) {
      if (opened.refused === "closing") return c.text("The server is restarting.", 503, { ...NO_STORE, "Retry-After": "1" });
      // The page's EventSource gives up on it and the page opens it again 10 s later (use-live-events.ts).
      return c.text(`At most ${STREAMS_PER_USER} live updates may be open at once: close another tab of Messages.`, 429, NO_STORE);
    }
    return withCookies(new Response(opened.stream, { headers: streamHeaders }));
  };
}
