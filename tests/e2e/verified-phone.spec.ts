/**
 * Verified phones (issue 49): a client posts a gig with a phone, reads the code the app texted
 * at /dev/sms, verifies it, and a digger sees 'Phone verified' on the gig page and on its Browse
 * Gigs card before buying, without the number.
 */
import { randomInt, randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { confirmedNewClient, DEMO, fillGigForm, signedInPage, toastSaying } from "./helpers.ts";

/** A fresh valid Austin number each run, so that the per-number limit never meets an earlier run's. */
const austinNumber = () => `(512) ${randomInt(200, 999)}-${String(randomInt(0, 10_000)).padStart(4, "0")}`;

test("a client verifies a gig's phone by the texted code, and a digger sees 'Phone verified' before buying", async ({ browser }) => {
  const title = `Fix a leaking kitchen tap ${randomUUID().slice(0, 6)}`;
  const number = austinNumber();
  const client = await newPage(browser);
  await confirmedNewClient(client, "Vera Verify");

  await client.goto("/post-gig");
  await fillGigForm(client, title, "The kitchen mixer tap drips all night; the cartridge may need replacing, parts on site.");
  await client.getByLabel("Phone").fill(number);
  await client.getByLabel(/I agree to the/).check();
  await client.getByRole("button", { name: "Post Gig" }).click();

  await expect(client).toHaveURL(/\/verify-phone/);
  await expect(client.getByText(/^We sent a 6-digit code to \+1 512/)).toBeVisible();

  const digits = number.replace(/\D/g, "");
  // The number as any format would write its last seven digits.
  const shownNumber = new RegExp(`${digits.slice(3, 6)}[\\s.-]?${digits.slice(6)}`);
  const outbox = await client.context().newPage();
  await outbox.goto(`/dev/sms?to=${encodeURIComponent(`+1${digits}`)}`);
  const text = outbox.getByRole("listitem").filter({ hasText: "is your Digs & Gigs code" }).first();
  await expect(text).toBeVisible();
  const code = /(\d{6}) is your Digs & Gigs code/.exec(await text.innerText())?.[1];
  expect(code).toMatch(/^\d{6}$/);
  await outbox.close();

  await client.getByLabel("Code").fill(code!);
  await client.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(toastSaying(client, "Phone verified")).toBeVisible();

  const digger = await signedInPage(browser, DEMO.digger, "/");
  await digger.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  const card = digger.getByRole("listitem").filter({ hasText: title });
  await expect(card.getByText("Phone verified", { exact: true })).toBeVisible();
  await expect(card).not.toContainText(shownNumber);

  await card.getByRole("link", { name: title }).click();
  await expect(digger.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(digger.getByText("Phone verified", { exact: true })).toBeVisible();
  await expect(digger.locator("main")).not.toContainText(shownNumber);
});
