/**
 * The client's record before buying (issue 48): a new client's gig says 'New client' under
 * 'About this client' on its page, and its Browse Gigs card carries the same line.
 */
import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { confirmedNewClient, DEMO, postGig, signedInPage } from "./helpers.ts";

test("a digger sees 'New client' on a new client's gig page and on its Browse Gigs card", async ({ browser }) => {
  const title = `Hang a porch swing ${randomUUID().slice(0, 6)}`;
  const client = await newPage(browser);
  await confirmedNewClient(client, "Nora Newcomer");
  await postGig(client, title);

  const digger = await signedInPage(browser, DEMO.digger, "/");
  await digger.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  const card = digger.getByRole("listitem").filter({ hasText: title });
  await expect(card.getByText("New client", { exact: true })).toBeVisible();

  await card.getByRole("link", { name: title }).click();
  await expect(digger.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const record = digger.getByRole("region", { name: "About this client" });
  await expect(record).toBeVisible();
  await expect(record.getByRole("listitem")).toHaveText(["New client"]);
});
