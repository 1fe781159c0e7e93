import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";

/**
 * A dialog whose content a fetcher loads first (the issues and the diggers of a gig on My
 * Gigs): `load()` asks `url`; the dialog opens when the answer has `key`, and a failure shows
 * `failure` as a toast and keeps it closed. A reload after an action (React Router revalidates
 * the fetcher) only refreshes the content. State is adjusted on new data, not in an effect.
 */
export function useLoadedDialog<T extends object>(url: string, key: keyof T & string, failure: string) {
  const fetcher = useFetcher<T | { error: string }>();
  const [requested, setRequested] = useState(false);
  const [open, setOpen] = useState(false);
  const [failures, setFailures] = useState(0);
  const data = fetcher.data && key in fetcher.data ? (fetcher.data as T) : null;

  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (requested && fetcher.state === "idle") {
      setRequested(false);
      if (data) setOpen(true);
      else setFailures((count) => count + 1);
    }
  }
  useEffect(() => {
    if (failures > 0) toast.error(failure);
  }, [failures, failure]);

  const load = () => {
    setRequested(true);
    void fetcher.load(url);
  };
  return { data, open: open && data !== null, setOpen, loading: requested, load };
}

/** Closes a form's dialog once its fetcher's answer is a success (adjusting state on new data). */
export function useCloseOnSuccess(data: { success?: string } | undefined, close: () => void) {
  const [seen, setSeen] = useState(data);
  if (data !== seen) {
    setSeen(data);
    if (data?.success) close();
  }
}
