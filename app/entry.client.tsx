/**
 * The browser's entry: React Router's default, with hydration's own libraries (React DOM's
 * client and React Router's DOM part, 60 KB gzip) fetched once the page has painted, not
 * beside the stylesheet that the first paint waits for (decision 0080). A page in a background
 * tab paints nothing until shown, so it hydrates at once.
 */
import { startTransition, StrictMode } from "react";

async function hydrate() {
  const [{ hydrateRoot }, { HydratedRouter }] = await Promise.all([import("react-dom/client"), import("react-router/dom")]);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// After the next frame's paint: a timer set in requestAnimationFrame runs once that frame is drawn.
if (document.visibilityState === "hidden") void hydrate();
else requestAnimationFrame(() => setTimeout(() => void hydrate()));
