import { useEffect } from "react";
import { toast } from "sonner";

type Answer = { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined;

/** An answer's `error` or `success` message as a toast (nothing for any other answer). */
export function toastAnswer(answer: unknown) {
  if (!answer || typeof answer !== "object") return;
  const { error, success } = answer as { error?: unknown; success?: unknown };
  if (typeof error === "string" && error) toast.error(error);
  else if (typeof success === "string" && success) toast.success(success);
}

/**
 * A refused form's first invalid field gets the focus, scrolled into view (the fields come in
 * the order the form checks them), so keyboard and screen-reader users land on it.
 */
export function useFieldFocus(answer: Answer) {
  useEffect(() => {
    const first = Object.keys(answer?.fieldErrors ?? {})[0];
    const field = first ? document.getElementById(first) : null;
    if (field) {
      field.focus({ preventScroll: true });
      field.scrollIntoView({ block: "center" });
    }
  }, [answer]);
}

/**
 * A page's own action (or loader) answer: its `error` or `success` as a toast, once per answer,
 * and the focus on the first invalid field. Fetchers' answers are toasted by the root instead
 * (FetcherToasts, app/components/fetcher-toasts.tsx); a fetcher's form calls only useFieldFocus.
 */
export function useActionToast(answer: Answer) {
  useEffect(() => toastAnswer(answer), [answer]);
  useFieldFocus(answer);
}
