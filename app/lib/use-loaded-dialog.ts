import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toastError } from "#app/lib/toasts.ts";

/**
 * A dialog whose content a fetcher loads first (the issues and the diggers of a gig on My
 * Gigs): `load()` asks `url`; the dialog opens when the answer has `key`, and a failure shows
 * `failure` as a toast and keeps it closed. A reload after an action (React Router revalidates
 * the fetcher) only refreshes the content. State is adjusted while rendering, not in an effect.
 */
export function useLoadedDialog<T extends object>(url: string, key: keyof T & string, failure: string) {
  const fetcher = useFetcher<T | { error: string }>();
  // A load goes "requested" -> "started" (the fetcher is busy) -> done (idle again). Waiting for
  // the fetcher to be idle after it was busy, not for its data to change, is what ends a load:
  // an answer that lands while the router is busy elsewhere (route discovery, a revalidation)
  // changes the data before the fetcher is idle, and must still open the dialog.
  const [load, setLoad] = useState<"none" | "requested" | "started">("none");
  const [open, setOpen] = useState(false);
  const [failures, setFailures] = useState(0);
  const data = fetcher.data && key in fetcher.data ? (fetcher.data as T) : null;

  if (load === "requested" && fetcher.state !== "idle") setLoad("started");
  if (load === "started" && fetcher.state === "idle") {
    setLoad("none");
    if (data) setOpen(true);
    else setFailures((count) => count + 1);
  }
  useEffect(() => {
    if (failures > 0) toastError(failure);
  }, [failures, failure]);

  const start = () => {
    setLoad("requested");
    void fetcher.load(url);
  };
  return { data, open: open && data !== null, setOpen, loading: load !== "none", load: start };
}

/** Closes a form's dialog once its fetcher's answer is a success (adjusting state on new data). */
export function useCloseOnSuccess(data: { success?: string } | undefined, close: () => void) {
  const [seen, setSeen] = useState(data);
  if (data !== seen) {
    setSeen(data);
    if (data?.success) close();
  }
}
