/**
 * /contact in a browser: the spec's labels and messages, the counter, the busy label, a
 * message that really goes out (seen in the local outbox at /dev/mail) and a form that
 * clears, the side panel's entries, accessibility (axe) and no sideways scrolling.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, holdPosts, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { outboxOf } from "./helpers.ts";

const SENT = "Message sent successfully! We'll get back to you soon.";

const fields = (page: Page) => ({
  name: page.getByLabel("Name", { exact: true }),
  email: page.getByLabel("Email", { exact: true }),
  subject: page.getByLabel("Subject", { exact: true }),
  message: page.getByLabel("Message", { exact: true }),
  send: page.getByRole("button", { name: "Send Message" }),
});

/** The whole page, toasts included. */
async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

test("the form has the spec's fields, marks the required ones, and counts the message out of 1000", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
  const form = fields(page);
  for (const field of [form.name, form.email, form.message]) await expect(field).toHaveAttribute("required", "");
  await expect(form.subject).not.toHaveAttribute("required");
  await expect(form.message).toHaveAttribute("rows", "6");
  await expect(form.message).toHaveAttribute("maxlength", "1000");
  await expect(page.getByText("0/1000 characters")).toBeVisible();
  await form.message.fill("Hello there!");
  await expect(page.getByText("12/1000 characters")).toBeVisible();
});

test("the spec's messages: required fields first, then the e-mail address; each field says what is wrong", async ({ page }) => {
  await page.goto("/contact");
  const form = fields(page);
  await form.send.click();
  await expect(page.getByText("Please fill in all required fields")).toBeVisible();
  await expect(form.name).toBeFocused();
  await expect(form.name).toHaveAttribute("aria-invalid", "true");
  await expect(form.name).toHaveAccessibleDescription("Name is required");
  await expect(form.message).toHaveAccessibleDescription("Message is required 0/1000 characters");
  await expectNoAxeViolations(page);

  await form.name.fill("Pat Playwright");
  await form.email.fill("pat-at-example.com");
  await form.message.fill("Where can I see the leads I bought?");
  await form.send.click();
  // The spec's text appears once (the notice); the field says it in its own words.
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(form.email).toBeFocused();
  await expect(form.email).toHaveAccessibleDescription("Enter an e-mail address such as name@example.com");
  await expect(form.name).not.toHaveAttribute("aria-invalid");
});

test("a message is sent to support, with the busy label meanwhile, and the form clears", async ({ page }) => {
  const subject = `Playwright ${randomUUID()}`;
  await page.goto("/contact");
  const form = fields(page);
  await form.name.fill("Pat Playwright");
  await form.email.fill("pat@example.com");
  await form.subject.fill(subject);
  await form.message.fill("Line one.\nLine two.");

  const release = await holdPosts(page, "**/contact.data**");
  await form.send.click();
  await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();
  release();
  await expect(page.getByText(SENT)).toBeVisible();
  await expect(form.send).toBeEnabled();
  for (const field of [form.name, form.email, form.subject, form.message]) await expect(field).toHaveValue("");
  await expect(page.getByText("0/1000 characters")).toBeVisible();
  // Typing again starts from an empty message, not the one just sent.
  await form.message.pressSequentially("Hi");
  await expect(form.message).toHaveValue("Hi");
  await expect(page.getByText("2/1000 characters")).toBeVisible();

  // Local mode keeps e-mail in the outbox instead of sending it.
  await page.goto(outboxOf("support@digsandgigs.local"));
  const mail = page.getByRole("listitem").filter({ hasText: `Contact form: ${subject}` });
  await expect(mail).toContainText("To support@digsandgigs.local");
  await expect(mail).toContainText("Pat Playwright <pat@example.com> wrote through the Digs & Gigs contact form.");
  await expect(mail).toContainText("Line one.\nLine two.");
});

test("the side panel: support e-mail, phone line with hours, live chat and FAQs", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("link", { name: "support@digsandgigs.local" })).toHaveAttribute("href", "mailto:support@digsandgigs.local");
  await expect(page.getByRole("link", { name: "+1 (555) 010-0100" })).toHaveAttribute("href", "tel:+15550100100");
  await expect(page.getByText("Monday to Friday, 9am to 6pm EST")).toBeVisible();
  await page.getByRole("link", { name: "Start a conversation" }).click();
  await expect(fields(page).name).toBeFocused();
  await page.getByRole("link", { name: "View FAQs" }).click();
  await expect(page).toHaveURL("/");
});

test("/contact has no axe violations", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
});

for (const width of [375, 1280]) {
  test(`/contact does not scroll sideways at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
}
