import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { buyLead, confirmedNewClient, DEMO, postGig, signedInPage } from "./helpers.ts";
import { demoDiggers } from "../../server/db/seed/demo-data.ts";

test("a digger buys the client's lead: the client's bell shows who bought it, links to the profile, and Mark all as read clears the count", async ({ browser }) => {
  const title = `Hang three shelves ${randomUUID().slice(0, 6)}`;
  // A client of its own: the demo client's lead bought by a test running beside this one would
  // add an unread notification between Mark all as read and the count's check.
  const client = await newPage(browser);
  await confirmedNewClient(client, "Nell Notices");
  await postGig(client, title);
  await buyLead(await signedInPage(browser, DEMO.digger, "/my-leads"), title);

  // The client's top bar counts it; the bell lists it, linking to the digger's profile.
  await client.goto("/my-gigs");
  const bell = client.getByRole("button", { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const panel = client.getByRole("dialog", { name: "Notifications" });
  const entry = panel.getByRole("link", { name: `${demoDiggers[0]!.handle} bought your lead for "${title}"` });
  await expect(entry).toBeVisible();
  await expect(entry).toHaveAttribute("href", /^\/digger\/[0-9a-f-]{36}$/);
  expect(await axeViolations(client)).toEqual([]);

  await panel.getByRole("button", { name: "Mark all as read" }).click();
  await expect(client.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await expect(client.getByTestId("unread-count")).toHaveCount(0);
  // Still listed, now read; it leads to the profile.
  await entry.click();
  await expect(client).toHaveURL(/\/digger\/[0-9a-f-]{36}$/);
  await expect(client.getByRole("heading", { level: 1, name: demoDiggers[0]!.handle })).toBeVisible();
});
