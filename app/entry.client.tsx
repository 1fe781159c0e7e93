/**
 * The browser's entry: React Router's default, hydrating in a task after the one that evaluated
 * the page's modules, so that the work after the first paint comes in shorter pieces (decision
 * 0080). The entry itself starts once the page has painted (app/components/scripts-after-paint.tsx).
 */
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

setTimeout(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
