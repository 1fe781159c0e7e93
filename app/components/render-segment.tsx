/**
 * A part of a long page rendered as a segment of its own: a Suspense boundary with nothing that
 * suspends (nothing inside may: there is no fallback). React's server renderer collects each
 * segment's HTML in one array of small pieces (five an attribute); past about 16,000 of them the
 * array is over 128 KB, which V8 allocates in its large-object space, a fresh memory mapping each
 * time the array grows, at every request. My Leads' 50 cards came to about 12,500 pieces and
 * crossed the line as the array grew: 12% of the page's CPU on the bench's machine (decision
 * 0089).
 *
 * In the browser, React hydrates such a boundary after the rest of the page, at low priority, and
 * at once when it is clicked (selective hydration). A card that fails to render is left to the
 * browser, and the page answers 500 with the rest of it (app/render-page.server.ts).
 */
import { Suspense, type ReactNode } from "react";

export function RenderSegment({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}
