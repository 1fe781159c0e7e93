import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and while hydrating, true once React runs in the browser: a piece
 * that works without JavaScript (a link, a native disclosure) becomes its scripted form then.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
