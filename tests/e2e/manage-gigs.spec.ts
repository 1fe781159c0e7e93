/**
 * Issue 23: a client manages what they posted, at 375 and 1280 px. Edit every field while
 * nobody has bought the lead; Delete after a confirmation; once bought, only four fields.
 */
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { confirmedNewClient, DEMO, myGigCard, signIn } from "./helpers.ts";
import { demoGigs } from "../../server/db/seed/demo-data.ts";

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 740 : 900 } });
  return waitForHydration(await context.newPage());
}

async function signedIn(browser: Browser, width: number, email: string, redirect: string): Promise<Page> {
  const page = await pageAt(browser, width);
  await signIn(page, email, DEMO.password, redirect);
  return page;
}

async function postGig(page: Page, title: string) {
  await page.goto("/post-gig");
  await page.getByLabel("Project Title").fill(title);
  await page.getByLabel("Project Description").fill("Two interior doors stick in their frames; plane them and rehang them so they close properly.");
  await page.getByLabel("Location").fill("Austin, TX");
  await page.getByLabel("Project Timeline").fill("Next week");
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(page.getByText("Gig posted successfully!")).toBeVisible();
}

for (const width of [375, 1280]) {
  test(`at ${width} px: a client edits a gig nobody bought, then deletes it after confirming`, async ({ browser }) => {
    const title = `Plane two sticking doors ${randomUUID().slice(0, 6)}`;
    // A client of their own: the demo client posts in other files, and an account posts at most 10 gigs an hour.
    const client = await pageAt(browser, width);
    await confirmedNewClient(client, "Nora Newgig");
    await postGig(client, title);

    await client.goto("/my-gigs");
    const card = client.getByRole("listitem").filter({ hasText: title });
    // The title is the only link named by it: Edit and Delete are named by their own words and
    // described by the title, so a screen reader still knows which gig they act on.
    await expect(client.getByRole("link", { name: title })).toHaveCount(1);
    await expect(client.getByRole("link", { name: title })).toHaveAttribute("href", /^\/gig\//);
    const edit = card.getByRole("link", { name: "Edit", exact: true });
    await expect(edit).toHaveAccessibleDescription(title);
    await expect(card.getByRole("button", { name: "Delete", exact: true })).toHaveAccessibleDescription(title);
    await edit.click();
    await expect(client.getByRole("heading", { level: 1, name: "Edit Gig" })).toBeVisible();
    await expect(client.getByLabel("Project Title")).toHaveValue(title);
    await expect(client.getByLabel("Project Title")).toBeEnabled();
    const edited = `${title} and a frame`;
    await client.getByLabel("Project Title").fill(edited);
    await client.getByLabel("Phone").fill(`512-555-${String(1000 + Math.floor(Math.random() * 9000))}`);
    await client.getByRole("button", { name: "Save Changes" }).click();
    // A new number: saved, and a code to verify it went out; the client is asked for it (issue 49).
    await expect(client).toHaveURL("/verify-phone?next=/my-gigs");
    await client.goto("/my-gigs");
    const editedCard = client.getByRole("listitem").filter({ hasText: edited });
    await expect(editedCard).toBeVisible();
    await expect(editedCard.getByText("Phone not verified")).toBeVisible();
    await expect(editedCard.getByRole("button", { name: "Verify this number" })).toHaveAccessibleDescription(edited);

    await editedCard.getByRole("button", { name: "Delete" }).click();
    const confirm = client.getByRole("dialog", { name: `Delete "${edited}"?` });
    await expect(confirm.getByText("Delete this gig? It disappears for good; nobody has bought it yet.")).toBeVisible();
    await confirm.getByRole("button", { name: "Keep Gig" }).click();
    await expect(confirm).toBeHidden();
    await editedCard.getByRole("button", { name: "Delete" }).click();
    await client.getByRole("dialog").getByRole("button", { name: "Delete Gig" }).click();
    await expect(client.getByText("Gig deleted")).toBeVisible();
    await expect(client.getByRole("listitem").filter({ hasText: edited })).toHaveCount(0);
  });

  test(`at ${width} px: a bought gig can change only its timeline, deadline, contact preferences and phone, and has no Delete`, async ({ browser }) => {
    // The demo client's first gig has purchases (demo data).
    const bought = demoGigs.find((gig) => gig.clientIndex === 0)!.title.trim();
    const client = await signedIn(browser, width, DEMO.client, "/my-gigs");
    const card = await myGigCard(client, bought);
    await expect(card.getByRole("button", { name: "Delete" })).toHaveCount(0);
    await card.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(client.getByText(/^Someone has bought this lead, so only the timeline, deadline, contact preferences and phone can change/)).toBeVisible();
    for (const label of ["Project Title", "Project Description", "Location", "Category", "Minimum Budget ($)"]) {
      await expect(client.getByLabel(label)).toBeDisabled();
    }
    await client.getByLabel("Project Timeline").fill("Whenever suits, within a month");
    await client.getByRole("button", { name: "Save Changes" }).click();
    await expect(client.getByText("Gig updated")).toBeVisible();

    // Its page says it is the client's own, with Edit Gig and no purchase button.
    await (await myGigCard(client, bought)).getByRole("link", { name: bought, exact: true }).click();
    await expect(client.getByText("This is your gig")).toBeVisible();
    await expect(client.getByRole("link", { name: "Edit Gig" })).toBeVisible();
    await expect(client.getByText("Whenever suits, within a month")).toBeVisible();
  });
}
