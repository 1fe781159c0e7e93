import { useSyncExternalStore } from "react";
import { toast } from "sonner";

/**
 * The one way the app shows a toast, so that it knows which messages a toast is saying right
 * now. A refused form's message is both toasted (the spec's place for it) and shown beside its
 * field (issue 23); while the toast says it, the field shows the same words as generated content
 * (FieldMessage), so the page's text holds each message once and a search for it finds one
 * element, while the field still shows it and still describes the control (docs/decisions/0029).
 */
const showing = new Map<string, number>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

function track(message: string) {
  showing.set(message, (showing.get(message) ?? 0) + 1);
  changed();
  let done = false;
  // Once the toast has gone, after its exit animation, the field's copy is the page's text again.
  const release = () => {
    if (done) return;
    done = true;
    setTimeout(() => {
      const left = (showing.get(message) ?? 1) - 1;
      if (left > 0) showing.set(message, left);
      else showing.delete(message);
      changed();
    }, 500);
  };
  return { onDismiss: release, onAutoClose: release };
}

export type ToastKind = "error" | "success" | "info";

export function showToast(kind: ToastKind, message: string) {
  toast[kind](message, track(message));
}

export const toastError = (message: string) => showToast("error", message);
export const toastSuccess = (message: string) => showToast("success", message);
export const toastInfo = (message: string) => showToast("info", message);

/** A notice that stays until the returned function ends it (no form repeats its words). */
export function toastLoading(message: string): () => void {
  const id = toast.loading(message);
  return () => toast.dismiss(id);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a toast is saying `message` right now (never during server rendering). */
export function useInToast(message: string | undefined): boolean {
  return useSyncExternalStore(
    subscribe,
    () => message !== undefined && showing.has(message),
    () => false,
  );
}
