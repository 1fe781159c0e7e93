import { useContext, useEffect } from "react";
import { UNSAFE_DataRouterContext } from "react-router";
import { toastAnswer } from "#app/lib/use-action-toast.ts";

const isSubmission = (method: string | undefined) => method !== undefined && method.toUpperCase() !== "GET";

/**
 * Every fetcher submission's `error` or `success` as a toast, once per answer, from the root
 * (app/root.tsx). Not from the form that sent it: that form can leave the page in the very
 * render that delivers its answer (a decided row leaves its queue), and an effect of an
 * unmounted component never runs.
 *
 * It listens to React Router's router itself, not to what React renders of it: the router hands
 * each of its states to its subscribers as it makes them, while React applies them in
 * transitions and may skip rendering one when the next arrives first. On a slow page a quick
 * answer's "submitting", "loading" and idle states could all come before one render, and a
 * toaster that waited to render a busy state missed the answer (docs/decisions/0090). A state
 * that ends a submission holds its fetcher once, idle with the answer, before the router drops
 * idle fetchers from its state (React Router's RouterProvider keeps fetchers' data the same way).
 * Loads (`fetcher.load`, revalidations) are not toasted: the caller decides what a failed load
 * says (useLoadedDialog). A redirecting action has no answer here; the page it leads to toasts
 * its flash.
 */
export function FetcherToasts() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  useEffect(() => {
    if (!router) return;
    const sent = new Set<string>();
    return router.subscribe((state) => {
      state.fetchers.forEach((fetcher, key) => {
        if (fetcher.state !== "idle") {
          if (isSubmission(fetcher.formMethod)) sent.add(key);
        } else if (sent.delete(key)) {
          toastAnswer(fetcher.data);
        }
      });
    });
  }, [router]);
  return null;
}
