import { lazy, Suspense } from "react";
import { useToasterWanted } from "#app/lib/toasts.ts";

const Toaster = lazy(() => import("#app/components/ui/sonner.tsx").then((m) => ({ default: m.Toaster })));

/** Sonner's Toaster, loaded and mounted with the page's first toast (app/lib/toasts.ts), not before. */
export function ToastHost() {
  return useToasterWanted() ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
