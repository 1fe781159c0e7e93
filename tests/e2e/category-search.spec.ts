/**
 * Issue 23: the profile's 84 categories can be searched, and the chosen ones show as chips that
 * can be removed (the digger's own profile form; nothing is saved here).
 */
import { expect, test } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";

for (const width of [375, 1280]) {
  test(`at ${width} px: the category list narrows as one types, and chips add and remove categories`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, DEMO.digger, DEMO.password, "/digger-registration");
    const search = page.getByRole("searchbox", { name: "Search categories" });
    await search.fill("leak");
    const list = page.getByLabel("Categories list");
    await expect(list.getByRole("checkbox", { name: "Leak Repair", exact: true })).toBeVisible();
    await expect(list.getByRole("checkbox", { name: "Carpentry", exact: true })).toBeHidden();
    // Enter narrows; it does not send the form.
    await search.press("Enter");
    await expect(page).toHaveURL("/digger-registration");

    const leak = list.getByRole("checkbox", { name: "Leak Repair", exact: true });
    if (await leak.isChecked()) await leak.uncheck();
    const chips = page.getByRole("list", { name: "Chosen categories" });
    await leak.check();
    await expect(chips.getByText("Leak Repair")).toBeVisible();
    await chips.getByRole("button", { name: "Deselect Leak Repair" }).click();
    await expect(leak).not.toBeChecked();
    await expect(chips.getByText("Leak Repair")).toHaveCount(0);

    await search.fill("no such trade");
    await expect(list.getByText("No category matches.")).toBeVisible();
  });
}
