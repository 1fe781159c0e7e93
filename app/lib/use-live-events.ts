import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { LIVE_EVENT_NAMES, LIVE_PATH, LIVE_SINCE_PARAM, liveNoticeOf, type LiveEvent, type LiveNotice } from "#core/live-events.ts";

/** After the browser gives up on the stream (a 429, a server restarting), it is opened again after this. */
const REOPEN_MS = 10_000;

export interface LiveOptions {
  /**
   * Whether the account may hold a stream (the loader's `live`: a confirmed e-mail and a
   * thread, server/live/admission.ts); without it nothing is opened. Read at mount only.
   */
  enabled: boolean;
  /**
   * When the page's data was read (the loader's `Date.now()`): the stream says `resync` at
   * once if an event for the user may have come between then and its start. Read at mount only.
   */
  since?: number;
}

/**
 * The signed-in user's live events (docs/decisions/0040-live-updates.md): one EventSource on
 * /messages/live while the component is mounted, closed on unmount. Use it on /messages pages
 * and Compare Quotes only: a browser opens at most 6 connections to a host, and each open stream holds one.
 * `onEvent` hears each thread event (ids only: re-read the data through the loader) and
 * `resync` (the stream may have missed events: re-read everything). The browser reconnects by
 * itself (with Last-Event-ID, answered by `resync`); when it gives up, a HEAD asks why: after a
 * 204 (the account may not hold one) or a 401 (signed out) it stays closed, otherwise it is
 * opened again later, and its first `ready` counts as a `resync`. Without JavaScript nothing
 * opens: the page is a form and a reload.
 */
function useLiveEvents(onEvent: (notice: LiveNotice) => void, options: LiveOptions) {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const since = useRef(options.since);
  const enabled = useRef(options.enabled);

  useEffect(() => {
    if (typeof EventSource === "undefined" || !enabled.current) return;
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const connect = (again: boolean) => {
      const url = !again && since.current !== undefined ? `${LIVE_PATH}?${LIVE_SINCE_PARAM}=${since.current}` : LIVE_PATH;
      const current = new EventSource(url);
      source = current;
      const listener = (event: MessageEvent<string>) => {
        const notice = liveNoticeOf(event.type, event.data);
        if (notice) handler.current(notice);
      };
      for (const name of LIVE_EVENT_NAMES) current.addEventListener(name, listener);
      if (again) current.addEventListener("ready", () => handler.current({ kind: "resync" }), { once: true });
      current.addEventListener("error", () => {
        // CONNECTING: the browser retries by itself. CLOSED: it gave up.
        if (current.readyState !== EventSource.CLOSED || stopped) return;
        void fetch(LIVE_PATH, { method: "HEAD" }).then(
          (answer) => answer.status !== 204 && answer.status !== 401,
          () => true,
        ).then((again) => {
          if (again && !stopped) reopen = setTimeout(() => connect(true), REOPEN_MS);
        });
      });
    };
    connect(false);
    return () => {
      stopped = true;
      clearTimeout(reopen);
      source?.close();
    };
  }, []);
}

/**
 * Re-reads the route's data (its loaders) at every live event the page shows (`shows`; every
 * event when left out) and at every resync, one re-read at a time: events that come during one
 * make one more after it.
 */
export function useLiveRevalidate(options: LiveOptions & { shows?: (event: LiveEvent) => boolean }) {
  const revalidator = useRevalidator();
  const pending = useRef(false);
  useLiveEvents((notice) => {
    if (notice.kind !== "resync" && options.shows && !options.shows(notice)) return;
    pending.current = true;
    if (revalidator.state === "idle") {
      pending.current = false;
      void revalidator.revalidate();
    }
  }, options);
  useEffect(() => {
    if (revalidator.state === "idle" && pending.current) {
      pending.current = false;
      void revalidator.revalidate();
    }
  }, [revalidator]);
}
