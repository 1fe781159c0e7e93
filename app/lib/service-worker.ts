import { useEffect } from "react";

/**
 * Registers the service worker (/sw.js, pwa/service-worker.ts) once the page has hydrated, in
 * the production build only: the development server has no build to precache. Its own
 * script is always fetched afresh (`updateViaCache: "none"`), so a new build's worker is
 * found at the next visit.
 */
export function useServiceWorker() {
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {
      // No worker (a private window, a browser that refuses it): the site works without one.
    });
  }, []);
}
