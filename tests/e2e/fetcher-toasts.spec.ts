import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures.ts";
import { confirmedNewClient, postGig, toastSaying } from "./helpers.ts";

/**
 * A fetcher's answer is toasted by the root (FetcherToasts), which sees the submission through
 * React Router's state. That state is applied in React transitions, and on a busy machine React
 * can skip the render of one state when the next arrives first: the "submitting" state of a
 * quick answer may never be rendered. Chromium's CPU throttling makes the page that slow on
 * purpose; every answer must still be toasted, once.
 */
test("a fetcher's answer is toasted even when the page is too slow to render its submitting state", async ({ page }) => {
  // The page slowed 30 times on purpose: 48 s beside another worker here.
  test.slow();
  await confirmedNewClient(page);
  const title = `Fix the garden gate ${randomUUID().slice(0, 6)}`;
  await postGig(page, title, "The garden gate sags and scrapes the path; rehang it and replace the latch.");
  await page.goto("/my-gigs");
  const status = page.getByRole("listitem").filter({ hasText: title }).getByRole("switch");
  await expect(status).toBeChecked();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 30 });
  try {
    for (let round = 0; round < 2; round++) {
      await status.click();
      await expect(toastSaying(page, "Gig closed successfully")).toHaveCount(1, { timeout: 30_000 });
      await expect(status).not.toBeChecked();
      await status.click();
      await expect(toastSaying(page, "Gig reopened successfully")).toHaveCount(1, { timeout: 30_000 });
      await expect(status).toBeChecked();
      // Each answer once: wait for both toasts to leave before the next round counts again.
      await expect(toastSaying(page, "Gig closed successfully")).toHaveCount(0, { timeout: 30_000 });
      await expect(toastSaying(page, "Gig reopened successfully")).toHaveCount(0, { timeout: 30_000 });
    }
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  }
});
