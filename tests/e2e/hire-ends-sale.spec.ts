/**
 * A hire ends the sale, and honest next steps (issue 47), at 375 and 1280 px: a client posts a
 * gig with a phone; the demo digger buys its lead and the gig's page offers 'Message {first
 * name}', Send a Quote, Send Email, Call and Text (sms:); the digger quotes and the client
 * accepts: the gig leaves a third digger's Browse Gigs, My Gigs says 'Hired: {handle}' with
 * Message, and 'Keep it open for more diggers' puts it back. My Leads says where each lead
 * stands, with filters, and 'The client has until ... to decide'. A client who has not confirmed
 * their e-mail lands on My Gigs with 'Almost done: ...' and the badge 'Waiting for e-mail
 * confirmation'. axe on each page; screenshots of each at both widths.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { expect, newPage, test } from "./fixtures.ts";
import { buyLead, confirmedNewClient, DEMO, fillGigForm, myGigCard, newDigger, signedInPage, signUpByForm, toastSaying } from "./helpers.ts";

const WIDTHS = [375, 1280] as const;
// A number of this run's own: a code goes to one number at most 3 times in 10 minutes (issue 49).
const LAST4 = String(1000 + Math.floor(Math.random() * 9000));
const PHONE = `(512) 555-${LAST4}`;
const E164 = `+1512555${LAST4}`;
const HIRED_MESSAGE = "The client has hired a digger for this gig, so its lead is no longer for sale.";

/** Posts `title` with a phone (Call and Text need one) as the signed-in client on `page`. */
async function postGigWithPhone(page: Page, title: string) {
  await page.goto("/post-gig");
  await fillGigForm(page, title, "Rebuild the back fence: forty feet of cedar pickets, two posts replaced, one gate rehung.");
  await page.getByLabel("Phone").fill(PHONE);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  // Posted; a code to verify the number went out, and the client is asked for it (issue 49).
  await expect(page).toHaveURL("/verify-phone?next=/my-gigs");
}

/** The gig `title` on Browse Gigs, as `page`'s digger finds it by its title: listed or not. */
async function listed(page: Page, title: string) {
  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  return page.getByRole("link", { name: title });
}

async function shoot(page: Page, width: number, name: string, path: (file: string) => string) {
  await page.screenshot({ path: path(`${name}-${width}.png`), fullPage: true });
}

for (const width of WIDTHS) {
  test(`at ${width} px: after paying the next step is the conversation; an accept ends the sale, 'Keep it open for more diggers' puts it back`, async ({ browser }, testInfo) => {
    test.slow();
    const size = { width, height: width === 375 ? 812 : 900 };
    const title = `Mend the back fence ${randomUUID().slice(0, 6)}`;
    const client = await newPage(browser);
    await client.setViewportSize(size);
    await confirmedNewClient(client, "Hana Hires");
    await postGigWithPhone(client, title);

    // The demo digger buys the lead: the gig's page offers the conversation first.
    const digger = await signedInPage(browser, DEMO.digger, "/my-leads");
    await digger.setViewportSize(size);
    await buyLead(digger, title);
    const contact = digger.getByRole("region", { name: "Client Information" });
    const message = contact.getByRole("link", { name: "Message Hana" });
    await expect(message).toBeVisible();
    await expect(message).toHaveAttribute("href", /^\/messages\/[0-9a-f-]{36}$/);
    const threadUrl = (await message.getAttribute("href"))!;
    await expect(contact.getByRole("link", { name: "Send a Quote" })).toHaveAttribute("href", `${threadUrl}?compose=quote`);
    await expect(contact.getByRole("link", { name: "Send Email" })).toHaveAttribute("href", /^mailto:/);
    await expect(contact.getByRole("link", { name: "Call" })).toHaveAttribute("href", `tel:${E164}`);
    await expect(contact.getByRole("link", { name: "Text" })).toHaveAttribute("href", `sms:${E164}`);
    // The main action comes first.
    const actions = await contact.getByRole("link").evaluateAll((links) => links.map((link) => link.textContent?.trim()));
    expect(actions.filter((name) => !/^\+[\d ]+$/.test(name ?? "")).slice(0, 2)).toEqual(["Message Hana", "Send a Quote"]);
    expect(await axeViolations(digger, { seriousOnly: true })).toEqual([]);
    await shoot(digger, width, "gig-after-paying", (file) => testInfo.outputPath(file));

    // The digger quotes in the thread.
    await contact.getByRole("link", { name: "Send a Quote" }).click();
    await expect(digger).toHaveURL(`${threadUrl}?compose=quote`);
    // `?compose=quote` opens the sheet on its form at once (after the client-side navigation's render).
    const form = digger.getByRole("form", { name: "Send a Quote" });
    await expect(form).toBeVisible();
    await form.getByLabel("Price ($)").fill("1450");
    await form.getByLabel("What is included").fill("Pickets, two posts, the gate and a day of labour");
    await form.getByRole("button", { name: /^Send( quote)?$/ }).click();
    await expect(toastSaying(digger, "Quote sent")).toBeVisible();

    // A third digger finds the gig while it is for sale.
    const third = await newDigger(browser);
    await third.page.setViewportSize(size);
    await expect(await listed(third.page, title)).toBeVisible();

    // The client accepts the quote and does not close the gig.
    await (await myGigCard(client, title)).getByRole("link", { name: "Compare Quotes (1)" }).click();
    await client.getByRole("button", { name: /^Accept .*'s quote$/ }).first().click();
    await client.getByRole("dialog").getByRole("button", { name: "Accept quote" }).click();
    await expect(toastSaying(client, "Accepted")).toBeVisible();

    // Off sale at once: gone from the third digger's Browse Gigs, and its page says why.
    await expect(await listed(third.page, title)).toHaveCount(0);
    await expect(third.page.getByText("No gigs found. Try adjusting your filters.")).toBeVisible();

    // My Gigs: 'Hired', the hired digger with Message, and the offer to keep it open.
    const card = await myGigCard(client, title);
    await expect(card.getByText("Hired", { exact: true }).first()).toBeVisible();
    await expect(card.getByText("open", { exact: true })).toHaveCount(0);
    await expect(card.getByText("Active", { exact: true })).toHaveCount(0);
    const hiredLine = card.getByRole("list", { name: "Hired diggers" }).getByRole("listitem");
    await expect(hiredLine).toHaveCount(1);
    await expect(hiredLine).toContainText(/^Hired: \S+/);
    await expect(hiredLine.getByRole("link", { name: /^Message / })).toHaveAttribute("href", threadUrl);
    expect(await axeViolations(client, { seriousOnly: true })).toEqual([]);
    await shoot(client, width, "my-gigs-hired", (file) => testInfo.outputPath(file));

    // The digger's My Leads: this lead reads 'Hired'; the filter keeps to it.
    await digger.goto("/my-leads");
    const lead = digger.getByRole("listitem").filter({ hasText: title });
    await expect(lead.getByText("Hired", { exact: true })).toBeVisible();
    const filters = digger.getByRole("navigation", { name: "Filter leads by state" });
    await expect(filters.getByRole("link")).toHaveText(["All", "Active", "Hired", "Not chosen", "Gig filled", "Refund pending", "Refunded"]);
    await filters.getByRole("link", { name: "Hired" }).click();
    await expect(digger).toHaveURL("/my-leads?state=hired");
    await expect(filters.getByRole("link", { name: "Hired" })).toHaveAttribute("aria-current", "page");
    await expect(digger.getByRole("listitem").filter({ hasText: title })).toBeVisible();
    await filters.getByRole("link", { name: "All" }).click();
    await expect(digger).toHaveURL("/my-leads");
    // The demo digger's seeded pending issue: the client's deadline, in the digger's words.
    await expect(digger.getByText(/^The client has until .+ to decide$/).first()).toBeVisible();
    await expect(digger.getByText(/^Respond by/)).toHaveCount(0);
    expect(await axeViolations(digger, { seriousOnly: true })).toEqual([]);
    await shoot(digger, width, "my-leads-states", (file) => testInfo.outputPath(file));

    // 'Keep it open for more diggers': back on sale, back on the third digger's Browse Gigs.
    await card.getByRole("button", { name: "Keep it open for more diggers" }).click();
    await expect(toastSaying(client, "Your gig is back on Browse Gigs: more diggers can buy its lead.")).toBeVisible();
    await expect(card.getByRole("button", { name: "Keep it open for more diggers" })).toHaveCount(0);
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    await expect(hiredLine).toContainText(/^Hired: \S+/);
    await expect(await listed(third.page, title)).toBeVisible();
    await third.page.getByRole("link", { name: title }).click();
    await expect(third.page.getByRole("button", { name: "Purchase Lead" })).toBeEnabled();
    await expect(third.page.getByText(HIRED_MESSAGE)).toHaveCount(0);
  });

  test(`at ${width} px: a client who has not confirmed their e-mail lands on My Gigs with what is left to do`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    const email = `unconfirmed-${randomUUID()}@example.com`;
    await signUpByForm(page, "/auth?redirect=%2Fpost-gig", "Consumer", "Uma Unconfirmed", email);
    await expect(page).toHaveURL("/post-gig");
    const title = `Hang three doors ${randomUUID().slice(0, 6)}`;
    await fillGigForm(page, title, "Three pre-hung interior doors to fit in existing openings, with new casing on both sides.");
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole("button", { name: "Post Gig" }).click();

    await expect(page).toHaveURL("/my-gigs");
    await expect(page.getByText(`Almost done: confirm your e-mail to publish your gig. We sent a link to ${email}.`)).toBeVisible();
    await expect(page.getByText("Gig posted successfully!")).toHaveCount(0);
    const card = page.getByRole("listitem").filter({ hasText: title });
    await expect(card.getByText("Waiting for e-mail confirmation")).toBeVisible();
    await expect(card.getByText("open", { exact: true })).toHaveCount(0);
    await expect(card.getByText("Active", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Resend confirmation e-mail" })).toBeVisible();
    expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
    await shoot(page, width, "my-gigs-unconfirmed", (file) => testInfo.outputPath(file));
    // Still said on the next visit, while the gig waits.
    await page.reload();
    await expect(page.getByText(/^Almost done: confirm your e-mail/)).toBeVisible();
  });
}
