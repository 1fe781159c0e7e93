/**
 * The console's Users section (issue 22): the demo operator finds a client who has a posted
 * gig and suspends them; the client's browser is signed out at its next request and cannot
 * sign in again; the gig leaves Browse Gigs; the Audit log lists the suspension.
 */
import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { confirmedNewClient, NEW_CLIENT_PASSWORD, postGig, signedInPage, toastSaying } from "./helpers.ts";

const OPERATOR = "operator@example.com";

test("the demo operator suspends a client: signed out, cannot sign in, their gig leaves Browse Gigs, and the Audit log lists it", async ({ browser }) => {
  const token = randomUUID().slice(0, 8);
  const name = `Sam Suspended ${token}`;
  const client = await newPage(browser);
  const email = await confirmedNewClient(client, name);
  const title = `Suspension test shelves ${token}`;
  await postGig(client, title);

  const visitor = await newPage(browser);
  await visitor.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(visitor.getByRole("link", { name: title })).toBeVisible();

  const operator = await signedInPage(browser, OPERATOR, "/ops/users");
  await operator.getByLabel("E-mail, name or handle").fill(email);
  await operator.getByRole("button", { name: "Search" }).click();
  await operator.getByRole("link", { name }).click();
  await expect(operator.getByRole("heading", { name, level: 1 })).toBeVisible();
  // The menu's Users is the only link named so; the way back to the search says what it is.
  await expect(operator.getByRole("link", { name: "Users" })).toHaveCount(1);
  await expect(operator.getByRole("link", { name: "Back to the search" })).toHaveAttribute("href", "/ops/users");
  await expect(operator.getByText(title)).toBeVisible();
  // The reason is required: the form says so beside the field.
  await operator.getByRole("button", { name: "Suspend" }).click();
  await expect(toastSaying(operator, "Please give a reason")).toBeVisible();
  await expect(operator.getByLabel("Reason")).toHaveAccessibleDescription(/Please give a reason/);
  const reason = `Fake listings reported by three diggers ${token}`;
  await operator.getByLabel("Reason").fill(reason);
  await operator.getByRole("button", { name: "Suspend" }).click();
  await expect(operator.getByText("Account suspended. The user is signed out everywhere.")).toBeVisible();
  await expect(operator.getByText(reason).first()).toBeVisible();
  await expect(operator.getByRole("button", { name: "Reinstate" })).toBeVisible();

  // The client's next request is a visitor's: My Gigs asks them to sign in.
  await client.goto("/my-gigs");
  await expect(client).toHaveURL(/\/auth\?redirect=(%2F|\/)my-gigs/);
  await client.getByLabel("Email").fill(email);
  await client.getByLabel("Password", { exact: true }).fill(NEW_CLIENT_PASSWORD);
  await client.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(client.getByText("This account is suspended. Contact support.")).toBeVisible();
  await expect(client).toHaveURL(/\/auth/);

  await visitor.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(visitor.getByRole("link", { name: title })).toHaveCount(0);

  await operator.getByRole("link", { name: "Audit log" }).click();
  const entry = operator.getByRole("list", { name: "Audit log entries" }).getByRole("listitem").filter({ hasText: email });
  await expect(entry.first()).toContainText("Suspended account");
  await expect(entry.first()).toContainText(`Reason: ${reason}`);
});
