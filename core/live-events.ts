/**
 * The live stream's vocabulary, shared by the server (server/live/) and the pages
 * (app/lib/use-live-events.ts): where the stream is, and what it carries. An event carries ids
 * only: the page re-reads what it shows through its own loader, which checks who may see it
 * (docs/decisions/0040-live-updates.md).
 */

/** The Server-Sent Events stream of the signed-in user's live events. */
export const LIVE_PATH = "/messages/live";

/**
 * Something the user may see changed: a thread of theirs (a new message or quote in it), or the
 * quotes of a gig of theirs, for its client's Compare Quotes (a quote sent, revised, withdrawn
 * or decided).
 */
export type LiveEvent = { kind: "thread"; threadId: string } | { kind: "quotes"; gigId: string };

/** What the page hears: an event, or "re-read everything" (the stream may have missed events). */
export type LiveNotice = LiveEvent | { kind: "resync" };

/** The SSE event names: one per event kind, and `resync`. */
export const LIVE_EVENT_NAMES = ["thread", "quotes", "resync"] as const satisfies ReadonlyArray<LiveNotice["kind"]>;

/**
 * The query parameter a page may pass with the time its data was read (milliseconds since the
 * epoch, the loader's `Date.now()`): the stream sends `resync` at once when an event for the
 * user may have arrived since, so nothing between the loader and the stream's start is lost.
 */
export const LIVE_SINCE_PARAM = "since";

/** A notice of the stream as the page hears it, or null for anything else. */
export function liveNoticeOf(eventName: string, data: string): LiveNotice | null {
  if (eventName === "resync") return { kind: "resync" };
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== "object" || parsed === null) return null;
    if (eventName === "thread" && "threadId" in parsed && typeof parsed.threadId === "string") return { kind: "thread", threadId: parsed.threadId };
    if (eventName === "quotes" && "gigId" in parsed && typeof parsed.gigId === "string") return { kind: "quotes", gigId: parsed.gigId };
  } catch {
    // not ours
  }
  return null;
}
