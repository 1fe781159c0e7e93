import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newPage, test } from "./fixtures.ts";
import { makeImage } from "../support/images.ts";
import { DEMO, openMyNewProfile, signIn, toastSaying } from "./helpers.ts";

async function signUp(page: Page, type: "Consumer" | "Digger", redirect: string) {
  await page.goto(`/auth?type=${type.toLowerCase()}&redirect=${encodeURIComponent(redirect)}`);
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByRole("radio", { name: new RegExp(`^${type}`) }).click();
  await page.getByLabel("Full Name").fill(`Pat ${type}`);
  await page.getByLabel("Email").fill(`${type.toLowerCase()}-${randomUUID()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("secret-pass");
  await page.getByLabel("I confirm I am 18 or older").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL(redirect);
}

test("a new digger registers with a photo, sees the spec's messages, then edits the profile", async ({ page }) => {
  await signUp(page, "Digger", "/digger-registration");
  await expect(page.getByRole("heading", { level: 1, name: "Create Your Digger Profile" })).toBeVisible();
  for (const section of ["Basic Information", "Professional Credentials", "Select Categories", "Verifiable References"]) {
    await expect(page.getByRole("heading", { name: section })).toBeVisible();
  }
  await expect(page.getByRole("main").getByRole("link", { name: "Terms of Service" })).toHaveAttribute("target", "_blank");

  const create = page.getByRole("button", { name: "Create Digger Profile" });
  await create.click();
  await expect(toastSaying(page, "Handle is required")).toBeVisible();
  await expect(page.getByLabel("Handle")).toHaveAccessibleDescription("Handle is required Lowercase letters, numbers and underscores.");
  await expect(page.getByLabel("Handle")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Business Name")).toHaveAccessibleDescription("Business name is required");
  // The browser's own check moves the focus to the first invalid field, as the server's does.
  await expect(page.getByLabel("Handle")).toBeFocused();

  const token = randomUUID().slice(0, 6);
  await page.getByLabel("Handle").fill(`Pat.Sparks-${token}`);
  await expect(page.getByLabel("Handle")).toHaveValue(`patsparks${token}`);
  await page.getByLabel("Business Name").fill("Sparks Private LLC");
  await page.getByLabel("Phone").fill("(555) 010-3030");
  await page.getByLabel("Location").fill("Boise, ID");
  await page.getByLabel("Profession").fill("Electrician");
  await page.getByLabel("Bio").fill("Residential wiring and panel upgrades.");
  await page.getByLabel("Minimum Hourly Rate ($)").fill("90");
  await page.getByLabel("Maximum Hourly Rate ($)").fill("80");
  await page.getByLabel("Profile Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await makeImage("png") });
  await page.getByLabel("Reference Name").fill("Rae Reference");
  await page.getByLabel("Reference Email").fill("rae@example.com");
  await create.click();
  await expect(toastSaying(page, "Please select at least one category")).toBeVisible();
  await expect(page.getByRole("group", { name: "Categories", exact: true })).toHaveAccessibleDescription("Please select at least one category");
  await expect(page.getByLabel("Handle")).not.toHaveAttribute("aria-invalid");

  await page.getByRole("checkbox", { name: "Electrical", exact: true }).first().check();
  await create.click();
  // The terms come first (the toast); the rates' message stands beside its field all the same.
  await expect(toastSaying(page, "Please accept the Terms of Service to continue")).toBeVisible();
  await expect(page.getByLabel("I agree to the")).toHaveAccessibleDescription("Please accept the Terms of Service to continue");
  await expect(page.getByLabel("Minimum Hourly Rate ($)")).toHaveAccessibleDescription("Minimum hourly rate cannot be greater than maximum hourly rate");
  await page.getByLabel("Maximum Hourly Rate ($)").fill("120");
  await create.click();
  await expect(page.getByLabel("Minimum Hourly Rate ($)")).not.toHaveAttribute("aria-invalid");
  await expect(page.getByLabel("I agree to the")).toHaveAttribute("aria-invalid", "true");

  await page.getByRole("button", { name: "Add Another Reference" }).click();
  await expect(page.getByRole("button", { name: /^Remove reference/ })).toHaveCount(2);
  await page.getByRole("button", { name: "Remove reference 2" }).click();
  await expect(page.getByRole("button", { name: /^Remove reference/ })).toHaveCount(0);

  await page.getByLabel("I agree to the").check();
  await create.click();
  await expect(page.getByText("Profile created successfully!")).toBeVisible();
  await openMyNewProfile(page);
  await expect(page.getByRole("heading", { level: 1, name: `patsparks${token}` })).toBeVisible();
  await expect(page.getByText("Sparks Private LLC")).toHaveCount(0);
  await expect(page.getByRole("img", { name: `Profile photo of patsparks${token}` })).toBeVisible();

  await page.getByRole("link", { name: "Edit Profile" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Your Digger Profile" })).toBeVisible();
  await expect(page.getByLabel("Business Name")).toHaveValue("Sparks Private LLC");
  await page.getByLabel("Profession").fill("Master Electrician");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
  await expect(page.getByText("Master Electrician").first()).toBeVisible();
});

test("a consumer cannot open the registration page", async ({ page }) => {
  await signIn(page, DEMO.client);
  await page.goto("/digger-registration");
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Only diggers can access this page")).toBeVisible();
});

test("browse talent: search, filter, sort, open a profile and come back", async ({ page }) => {
  await page.goto("/browse-diggers");
  await expect(page.getByRole("heading", { level: 1, name: "Browse Talent" })).toBeVisible();
  const cards = page.getByRole("list", { name: "Diggers" }).getByRole("heading", { level: 2 });
  await expect(cards.first()).toBeVisible();
  await page.getByLabel("Sort by").selectOption({ label: "Lowest Rate" });
  await expect(page).toHaveURL(/sort=rate/);
  await page.getByLabel("Search").fill("plumb");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(cards.filter({ hasText: "alvarez_plumbing" })).toBeVisible();
  await page.getByLabel("Search").fill("no-such-digger-anywhere");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No diggers found. Try adjusting your filters.")).toBeVisible();
  await page.getByLabel("Search").fill("");
  await page.getByLabel("Category").selectOption({ label: "Plumbing" });
  await expect(page).toHaveURL(/category=/);
  await page.getByRole("link", { name: "alvarez_plumbing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "alvarez_plumbing" })).toBeVisible();
  await expect(page.getByText("Contact hidden").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Post a Gig to Connect" })).toHaveAttribute("href", "/post-gig");
  await page.getByRole("link", { name: "Back to Browse" }).click();
  await expect(page).toHaveURL("/browse-diggers");
});

test("a consumer asks for a reference's contact, the digger approves, and the contact shows", async ({ browser }) => {
  const client = await newPage(browser);
  await signUp(client, "Consumer", "/browse-diggers");
  await client.getByLabel("Search").fill("marcus_bell_handyman");
  await client.getByRole("button", { name: "Search" }).click();
  await client.getByRole("link", { name: "marcus_bell_handyman" }).click();
  await client.getByRole("button", { name: "Request Contact for Dana Whitaker" }).click();
  await expect(client.getByText("Request sent! The digger will be notified.")).toBeVisible();
  await expect(client.getByText("Request Pending")).toBeVisible();

  const digger = await newPage(browser);
  await signIn(digger, DEMO.digger, DEMO.password, "/reference-requests");
  await expect(digger.getByRole("heading", { level: 1, name: "Reference Requests" })).toBeVisible();
  await digger.getByRole("button", { name: "Approve request from Pat Consumer" }).first().click();
  await expect(digger.getByText("Request approved")).toBeVisible();

  await client.reload();
  await expect(client.getByRole("link", { name: "dana.whitaker@example.com" })).toBeVisible();
  await expect(client.getByText("(555) 010-3141")).toBeVisible();
});
