/**
 * Credential proofs (issue 22): a new digger uploads a licence from the profile editing page;
 * the demo operator opens the verification queue, approves it until a date, and the public
 * profile shows 'Licensed — verified {date}'; the Audit log lists the approval.
 */
import { randomUUID } from "node:crypto";
import { formatDate } from "../../core/dates.ts";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { openMyNewProfile, signedInPage, startDiggerRegistration, toastSaying } from "./helpers.ts";

const OPERATOR = "operator@example.com";
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");


test("the demo operator approves an uploaded licence and the profile shows it verified", async ({ browser }) => {
  test.setTimeout(150_000);
  const number = `ROC-${randomUUID().slice(0, 8).toUpperCase()}`;
  const digger = await newPage(browser);
  const handle = await startDiggerRegistration(digger);
  await digger.getByRole("button", { name: "Create Digger Profile" }).click();
  const profileUrl = await openMyNewProfile(digger);

  // The profile editing page: nothing chosen, every field says why and the first has the focus.
  await digger.goto("/digger-registration#credentials");
  const section = digger.getByRole("region", { name: "Proof for Insured, Bonded or Licensed" });
  // "Credential" labels the select only (the card's name does not say "credential").
  await expect(digger.getByLabel("Credential")).toHaveCount(1);
  await section.getByRole("button", { name: "Upload Proof" }).click();
  await expect(section.getByLabel("Credential")).toBeFocused();
  await expect(section.getByLabel("Document")).toHaveAccessibleDescription(/Choose the document to upload/);
  await expect(section.getByLabel("Policy or licence number")).toHaveAccessibleDescription("Enter the policy or licence number");

  await section.getByLabel("Credential").selectOption("licensed");
  await section.getByLabel("Policy or licence number").fill(number);
  await section.getByLabel("Expiry date").fill(inDays(365));
  await section.getByLabel("Document").setInputFiles({ name: "contractor-licence.pdf", mimeType: "application/pdf", buffer: PDF });
  await section.getByRole("button", { name: "Upload Proof" }).click();
  await expect(toastSaying(digger, "Proof uploaded. An operator will review it.")).toBeVisible();
  const proofs = section.getByRole("list", { name: "Your proofs" });
  await expect(proofs).toContainText("Waiting for review");
  await expect(proofs.getByRole("link", { name: "Open contractor-licence.pdf" })).toBeVisible();
  expect(await axeViolations(digger)).toEqual([]);
  for (const width of [375, 1280]) {
    await digger.setViewportSize({ width, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await digger.screenshot({ path: test.info().outputPath(`proof-upload-${width}.png`), fullPage: false });
  }

  // The operator's queue: the proof with its number and document; Approve until a date.
  const operator = await signedInPage(browser, OPERATOR, "/ops/verification");
  const row = operator.getByRole("list", { name: "Proofs waiting for review" }).getByRole("listitem").filter({ hasText: number });
  await expect(row.getByRole("link", { name: `@${handle}` })).toBeVisible();
  const download = operator.waitForEvent("download");
  await row.getByRole("link", { name: "Download contractor-licence.pdf" }).click();
  expect((await download).suggestedFilename()).toBe("contractor-licence.pdf");
  const until = inDays(300);
  await row.getByLabel("Verified until").fill(until);
  expect(await axeViolations(operator)).toEqual([]);
  for (const width of [375, 1280]) {
    await operator.setViewportSize({ width, height: 900 });
    await row.scrollIntoViewIfNeeded();
    await operator.screenshot({ path: test.info().outputPath(`proof-queue-${width}.png`), fullPage: false });
  }
  await row.getByRole("button", { name: "Approve" }).click();
  // The decided proof leaves the queue, and the operator is told: the toast comes from the root,
  // so a row that leaves the page in the render that brings its answer still says so.
  await expect(operator.getByRole("region", { name: "Credential proofs" }).getByText(number)).toHaveCount(0);
  await expect(toastSaying(operator, "Credential approved.")).toBeVisible();

  // The public profile says who checked what, and since when.
  const visitor = await newPage(browser);
  await visitor.goto(profileUrl);
  const credentials = visitor.getByRole("list", { name: "Credentials" });
  await expect(credentials).toContainText(`Licensed — verified ${formatDate(new Date())}`);
  await expect(credentials).not.toContainText("Licensed (self-reported)");
  await expect(visitor.getByText(number)).toHaveCount(0);
  for (const width of [375, 1280]) {
    await visitor.setViewportSize({ width, height: 900 });
    await visitor.screenshot({ path: test.info().outputPath(`profile-verified-${width}.png`), fullPage: false });
  }

  // The digger sees the decision; the Audit log has it.
  await digger.reload();
  await expect(section.getByRole("list", { name: "Your proofs" })).toContainText(`until ${formatDate(until)}`);
  await operator.getByRole("navigation", { name: "Operator console" }).getByRole("link", { name: "Audit log" }).click();
  const entry = operator.getByRole("list", { name: "Audit log entries" }).getByRole("listitem").filter({ hasText: "Approved credential" }).first();
  await expect(entry).toContainText(`Licensed, verified until ${formatDate(until)}`);
});
