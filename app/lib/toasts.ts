import { useSyncExternalStore } from "react";
import type * as Sonner from "sonner";

/**
 * Sonner (its toast store and its Toaster, 10 KB gzip) is not in a page's first-visit
 * JavaScript: the first toast loads it and mounts the Toaster (ToastHost,
 * app/components/toast-host.tsx). Sonner's Toaster shows the toasts made before it subscribed.
 */
let sonner: Promise<typeof Sonner> | null = null;
let toasterWanted = false;
const hostListeners = new Set<() => void>();

function loadSonner() {
  if (!toasterWanted) {
    toasterWanted = true;
    hostListeners.forEach((listener) => listener());
  }
  return (sonner ??= import("sonner"));
}

/** Whether a toast has been asked for, so the Toaster must be mounted (false on the server). */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      hostListeners.add(listener);
      return () => hostListeners.delete(listener);
    },
    () => toasterWanted,
    () => false,
  );
}

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
  const tracking = track(message);
  void loadSonner().then(({ toast }) => toast[kind](message, tracking));
}

export const toastError = (message: string) => showToast("error", message);
export const toastSuccess = (message: string) => showToast("success", message);
export const toastInfo = (message: string) => showToast("info", message);

/** A notice that stays until the returned function ends it (no form repeats its words). */
export function toastLoading(message: string): () => void {
  let ended = false;
  let id: string | number | undefined;
  void loadSonner().then(({ toast }) => {
    if (!ended) id = toast.loading(message);
  });
  return () => {
    ended = true;
    if (id !== undefined) void loadSonner().then(({ toast }) => toast.dismiss(id));
  };
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
