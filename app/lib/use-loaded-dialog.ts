import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toastError } from "#app/lib/toasts.ts";

/**
 * The presses of a button that opens a loaded dialog (useLoadedDialog), held by the component
 * that draws the button. The dialog's part (its fetcher, its state, the dialog itself) is made
 * only once the button is first pressed (`asks > 0`), and kept after: a page with a card each
 * would otherwise set a fetcher up for every card on every render, for a dialog that is seldom
 * opened (about 7 µs a card in a server render of My Gigs, issue 52). The button stays where it
 * is, so the focus and the layout do not move when the dialog's part arrives.
 */
export type LoadRequests = { asks: number; ask: () => void; loading: boolean; setLoading: (loading: boolean) => void };

export function useLoadRequests(): LoadRequests {
  const [asks, setAsks] = useState(0);
  const [loading, setLoading] = useState(false);
  return { asks, ask: () => setAsks((count) => count + 1), loading, setLoading };
}

/**
 * A dialog whose content a fetcher loads first (the issues and the diggers of a gig on My
 * Gigs, a digger's review of a client): each press of its button (`requests.asks` going up)
 * asks `url`; the dialog opens when the answer has `key`, and a failure shows `failure` as a
 * toast and keeps it closed. While a load runs, `requests.loading` is true (the button is
 * disabled). A reload after an action (React Router revalidates the fetcher) only refreshes the
 * content. State is adjusted while rendering, not in an effect.
 */
export function useLoadedDialog<T extends object>(url: string, key: keyof T & string, failure: string, requests: LoadRequests) {
  const fetcher = useFetcher<T | { error: string }>();
  // A load goes "requested" -> "started" (the fetcher is busy) -> done (idle again). Waiting for
  // the fetcher to be idle after it was busy, not for its data to change, is what ends a load:
  // an answer that lands while the router is busy elsewhere (route discovery, a revalidation)
  // changes the data before the fetcher is idle, and must still open the dialog.
  const [load, setLoad] = useState<"none" | "requested" | "started">("none");
  const [open, setOpen] = useState(false);
  const [failures, setFailures] = useState(0);
  const [seenAsks, setSeenAsks] = useState(0);
  const data = fetcher.data && key in fetcher.data ? (fetcher.data as T) : null;

  const { asks, setLoading } = requests;
  if (asks !== seenAsks) {
    setSeenAsks(asks);
    setLoad("requested");
  }
  if (load === "started" && fetcher.state === "idle") {
    setLoad("none");
    if (data) setOpen(true);
    else setFailures((count) => count + 1);
  }
  if (load === "requested" && fetcher.state !== "idle") setLoad("started");
  // Each press loads once (an effect may run twice for one press under StrictMode).
  const loadedAsks = useRef(0);
  const { load: fetch } = fetcher;
  useEffect(() => {
    if (asks === loadedAsks.current) return;
    loadedAsks.current = asks;
    void fetch(url);
  }, [asks, fetch, url]);
  const loading = load !== "none";
  useEffect(() => setLoading(loading), [loading, setLoading]);
  useEffect(() => {
    if (failures > 0) toastError(failure);
  }, [failures, failure]);
  return { data, open: open && data !== null, setOpen };
}

/** Closes a form's dialog once its fetcher's answer is a success (adjusting state on new data). */
export function useCloseOnSuccess(data: { success?: string } | undefined, close: () => void) {
  const [seen, setSeen] = useState(data);
  if (data !== seen) {
    setSeen(data);
    if (data?.success) close();
  }
}
