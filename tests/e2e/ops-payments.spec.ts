/**
 * The console's Payments queue of overdue issues awaiting an operator (issue 30; decision 0031):
 * the demo data holds one (a digger past their two automatic approvals this month). The demo
 * operator sees it with the digger's refund rate and the operators' deadline, at 375 and 1280 px
 * without sideways scrolling or accessibility violations, and approves the refund.
 */
import { GUARANTEE_TEXTS } from "../../core/reply-guarantee.ts";
import { expect, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { signIn, toastSaying } from "./helpers.ts";

const OPERATOR = "operator@example.com";

test("the demo operator decides an overdue issue awaiting an operator in Payments", async ({ page }) => {
  await signIn(page, OPERATOR, undefined, "/ops/payments");
  await expect(page).toHaveURL("/ops/payments");
  const section = page.getByRole("region", { name: "Overdue issues awaiting an operator" });
  const row = section.getByRole("list", { name: "Overdue issues awaiting an operator" }).getByRole("listitem").first();
  await expect(row.getByText(/^Refund rate \(90 days\): \d+% \(2 of \d+ purchases\)$/)).toBeVisible();
  await expect(row.getByText(/^Decide by /)).toBeVisible();
  await expect(row.getByText("Posted by Mistake: ", { exact: false })).toBeVisible();
  // Issue 48: what the purchase's thread shows, beside the decision; the queue of reply guarantee refunds past a digger's bound.
  await expect(row.getByRole("list", { name: "What the thread shows" }).getByText(/^Messages: \d+ from the digger, \d+ from the client$/)).toBeVisible();
  await expect(page.getByRole("heading", { name: GUARANTEE_TEXTS.queueTitle })).toBeVisible();

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/ops-payments-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
  }

  await row.getByRole("button", { name: "Approve refund" }).click();
  await expect(toastSaying(page, "Refund approved. The digger and the client are told.")).toBeVisible();
  await expect(section.getByText("No overdue issue is awaiting an operator.")).toBeVisible();
  await page.goto("/ops/audit");
  await expect(page.getByText("Approved an overdue issue's refund").first()).toBeVisible();
});
