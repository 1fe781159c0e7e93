import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { ZodError } from "zod";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { toastError, toastSuccess } from "#app/lib/toasts.ts";
import { fieldMessages, firstMessage } from "#core/forms.ts";

type Answer = { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined;

/** An answer's `error` or `success` message as a toast (nothing for any other answer). */
export function toastAnswer(answer: unknown) {
  if (!answer || typeof answer !== "object") return;
  const { error, success } = answer as { error?: unknown; success?: unknown };
  if (typeof error === "string" && error) toastError(error);
  else if (typeof success === "string" && success) toastSuccess(success);
}

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button, [tabindex]:not([tabindex="-1"])';

/**
 * A refused form's first invalid field gets the focus, scrolled into view, so keyboard and
 * screen-reader users land on it. "First" is the page's order, not the order the form checks
 * its fields in (/post-gig checks the terms box first, and it is last on the page). A field is
 * invalid when it is marked so (`aria-invalid`, from fieldControlProps; `data-invalid` on a group
 * such as the category list, whose first control gets the focus) whatever its id is, so this
 * works for every form alike. Pass the answer (or the browser's own check) as one object per
 * refusal: a new object moves the focus again, the same one does not.
 */
export function useFieldFocus(answer: Answer) {
  useEffect(() => {
    if (Object.keys(answer?.fieldErrors ?? {}).length === 0) return;
    const marked = document.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]');
    const field = marked && !marked.matches(FOCUSABLE) ? marked.querySelector<HTMLElement>(FOCUSABLE) : marked;
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

/**
 * The one way a form checks itself in the browser before it sends, with the server's own zod
 * schema (core/): `errors` are that check's messages until the next submission, then the
 * server's answer's; `check(event, parsed, extra)` stops a refused submission, toasts its first
 * message and moves the focus to the first invalid field, as a server's refusal does. `extra`
 * holds what the schema cannot see in the browser (a chosen file's type and size), keyed by
 * field like the schema's messages. Page forms and fetcher forms alike.
 */
export function useBrowserCheck(answer: Answer) {
  const [checked, setChecked] = useState<Record<string, string> | null>(null);
  useFieldFocus(useMemo(() => (checked ? { fieldErrors: checked } : undefined), [checked]));
  const check = (event: FormEvent, parsed: { success: true } | { success: false; error: ZodError }, extra: Record<string, string> = {}) => {
    const found = { ...(parsed.success ? {} : fieldMessages(parsed.error)), ...extra };
    const refused = Object.keys(found).length > 0;
    if (refused) {
      event.preventDefault();
      toastError(parsed.success ? Object.values(found)[0]! : firstMessage(parsed.error));
    }
    setChecked(refused ? found : null);
  };
  return { errors: checked ?? inlineErrors(answer), check };
}

/**
 * A form's schema module (core/, with zod: 24 KB gzip) loaded when the form is first touched,
 * not with its page (docs/decisions/0050-first-visit-weight.md): `prepare` starts the load (the
 * form's onFocus), `withSchemas(event, run)` runs the browser check with the module. A
 * submission that comes before the module is held, and sent again once it has loaded, so the
 * check still runs first (useBrowserCheck stays the one check). Should the module fail to load,
 * the form is sent unchecked: the server checks it again anyway, and answers the same way.
 */
export function useSchemas<M>(load: () => Promise<M>) {
  const module = useRef<M | "failed" | null>(null);
  const loading = useRef<Promise<unknown> | null>(null);
  const prepare = () =>
    (loading.current ??= load().then(
      (loaded) => (module.current = loaded),
      () => (module.current = "failed"),
    ));
  const withSchemas = (event: FormEvent<HTMLFormElement>, run: (schemas: M) => void) => {
    if (module.current === "failed") return;
    if (module.current) return run(module.current);
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    void prepare().then(() => form.requestSubmit(submitter));
  };
  return { prepare, withSchemas };
}
