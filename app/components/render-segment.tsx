/**
 * A part of a long page rendered as a segment of its own: a Suspense boundary with nothing that
 * suspends. React's server renderer collects each boundary's HTML in one array of small pieces
 * (five an attribute); past about 16,000 of them the array is over 128 KB, which V8 allocates in
 * its large-object space, a fresh memory mapping each time the array grows, at every request.
 * My Leads' 50 cards came to about 12,500 pieces and crossed the line as the array grew: 12% of
 * the page's CPU on the bench's machine (decision 0089). The browser hydrates each boundary right
 * after the rest of the page, the one a person clicks first (React's selective hydration).
 */
import { Suspense, type ReactNode } from "react";

export function RenderSegment({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}
