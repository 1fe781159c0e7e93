import { useCallback, useEffect, useState } from "react";
import { useFetcher, useFetchers } from "react-router";
import { toastAnswer } from "#app/lib/use-action-toast.ts";

const isSubmission = (method: string | undefined) => method !== undefined && method.toUpperCase() !== "GET";

/**
 * Every fetcher submission's `error` or `success` as a toast, once per answer, from the root
 * (app/root.tsx). Not from the form that sent it: that form can leave the page in the very
 * render that delivers its answer (a decided row leaves its queue), and an effect of an
 * unmounted component never runs.
 *
 * `useFetchers()` lists fetchers only while they work, so it shows a submission but never its
 * answer: React Router drops a fetcher from that list once it is idle again, and it keeps an
 * idle fetcher's answer only while some component uses its key. So each submission seen here
 * gets a FetcherAnswer that uses the same key: it holds on to the answer even when the form
 * that sent it is gone, toasts it, and leaves.
 *
 * A submission is seen while it is "submitting" or while its answer's revalidation is
 * "loading" (that state still carries the submission's method): React Router applies its
 * state in transitions, and on a busy machine React may skip a transition's render when the
 * next update arrives first, so the "submitting" state alone can go unseen (a review's 'Review
 * posted. Thank you!' once never showed that way). Loads (`fetcher.load`, revalidations) are not
 * toasted: the caller decides what a failed load says (useLoadedDialog). A redirecting action
 * has no answer here; the page it leads to toasts its flash.
 */
export function FetcherToasts() {
  const fetchers = useFetchers();
  const [keys, setKeys] = useState<string[]>([]);
  // Adjusted while rendering: a new submission gets its FetcherAnswer in the same render.
  const added = fetchers.filter((f) => f.state !== "idle" && isSubmission(f.formMethod) && !keys.includes(f.key)).map((f) => f.key);
  if (added.length > 0) setKeys([...keys, ...added]);
  const done = useCallback((key: string) => setKeys((current) => current.filter((k) => k !== key)), []);
  return keys.map((key) => <FetcherAnswer key={key} fetcherKey={key} onDone={done} />);
}

function FetcherAnswer({ fetcherKey, onDone }: { fetcherKey: string; onDone: (key: string) => void }) {
  const fetcher = useFetcher({ key: fetcherKey });
  const busy = fetcher.state !== "idle";
  const [sawBusy, setSawBusy] = useState(busy);
  if (busy && !sawBusy) setSawBusy(true);
  const answered = sawBusy && !busy;
  const answer: unknown = fetcher.data;
  useEffect(() => {
    if (!answered) return;
    toastAnswer(answer);
    onDone(fetcherKey);
  }, [answered, answer, fetcherKey, onDone]);
  return null;
}
