/**
 * One way to ask axe about a page: its violations as "rule: targets", so that a failing
 * assertion names what to fix.
 *
 * The page is switched to reduced motion first. A toast or dialog that is still fading in is
 * measured by axe at its passing opacity, so its text fails color-contrast for a fraction of a
 * second (CI saw it on "Signed in successfully!" right after sign-in). With reduced motion,
 * sonner's toasts and the app's `motion-safe:` animations are not played, and axe sees what a
 * person sees a moment later.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

type Options = {
  /** Only this part of the page (a CSS selector), e.g. '[role="dialog"]'. */
  include?: string;
  /** Only serious and critical violations. */
  seriousOnly?: boolean;
};

export async function axeViolations(page: Page, options: Options = {}): Promise<string[]> {
  await page.emulateMedia({ reducedMotion: "reduce" });
  // Let a transition already under way snap to its end before axe reads the styles: two frames,
  // or half a second where the browser draws none (headless Chromium may draw no frame for a page
  // it counts as hidden, and an evaluate that waits for one has no timeout of its own).
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        setTimeout(resolve, 500);
        requestAnimationFrame(() => requestAnimationFrame(resolve));
      }),
  );
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => !options.seriousOnly || v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
