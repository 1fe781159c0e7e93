import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { newPage } from "./fixtures.ts";

export const DEMO = { client: "consumer@example.com", digger: "digger@example.com", password: "digsandgigs-demo" };

/**
 * Signs in through the real form and waits until the app has landed on `redirect` and shows it:
 * the address changes before React has drawn the new page (a transition), and a click in between
 * lands on the sign-in page's header (a menu opened there closes when the new page comes in).
 * The bell (a button, or a link without JavaScript) is drawn only for a signed-in user, so once
 * it is there the new page is.
 */
export async function signIn(page: Page, email: string, password = DEMO.password, redirect = "/") {
  await page.goto(`/auth?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(redirect);
  await expect(page.getByRole("banner").getByLabel(/^Notifications/).first()).toBeVisible();
}

/** The client posts a gig in the first category with a $2,000 minimum (its lead costs $50.00). */
/** Every required field of /post-gig but the terms box, on the page already open. */
export async function fillGigForm(page: Page, title: string, description: string) {
  await page.getByLabel("Project Title").fill(title);
  await page.getByLabel("Project Description").fill(description);
  await page.getByLabel("Location").fill("Tucson, AZ");
  await page.getByLabel("Project Timeline").fill("This week");
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel("Minimum Budget ($)").fill("2000");
  await page.getByLabel("Contact Preferences").fill("Text me");
}

export async function postGig(
  page: Page,
  title: string,
  description = "Three floating oak shelves on a brick wall in the living room, anchors included.",
) {
  await page.goto("/post-gig");
  await fillGigForm(page, title, description);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(page.getByText("Gig posted successfully!")).toBeVisible();
}

/** The digger finds the gig by its title and buys its $50.00 lead through the test checkout. */
export async function buyLead(page: Page, title: string) {
  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: title }).click();
  await page.getByRole("button", { name: "Purchase Lead" }).click();
  await expect(page).toHaveURL(/\/checkout\//);
  await page.getByRole("button", { name: "Pay $50.00" }).click();
  await expect(page.getByText("Payment successful! You can now access the client contact information.")).toBeVisible();
}

/**
 * A conversation's opening: a new confirmed client (`clientName`) posts `title`, the demo digger
 * buys its lead and opens its thread from My Leads.
 */
export async function boughtLeadThread(browser: Browser, clientName: string, title: string): Promise<{ client: Page; clientEmail: string; digger: Page; threadUrl: string }> {
  // A fresh confirmed client (the demo client may post 10 gigs an hour).
  const client = await newPage(browser);
  const clientEmail = await confirmedNewClient(client, clientName);
  await postGig(client, title);
  const digger = await signedInPage(browser, DEMO.digger, "/my-leads");
  await buyLead(digger, title);
  await digger.goto("/my-leads");
  await digger.getByRole("listitem").filter({ hasText: title }).getByRole("link", { name: "Message" }).click();
  await expect(digger).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  return { client, clientEmail, digger, threadUrl: digger.url() };
}

/** A page of its own (own cookies), signed in as `email` and landed on `redirect`. */
export async function signedInPage(browser: Browser, email: string, redirect: string): Promise<Page> {
  const page = await newPage(browser);
  await signIn(page, email, DEMO.password, redirect);
  return page;
}

/**
 * The card of the gig `title` on My Gigs, following Load more until it shows: other tests post
 * newer gigs as the demo client, which can push a seeded gig past the first page.
 */
export async function myGigCard(page: Page, title: string): Promise<Locator> {
  await page.goto("/my-gigs");
  return followingLoadMore(page, page.getByRole("listitem").filter({ hasText: title }));
}

/** `card` on the list page open in `page`, following its Load more (up to 10 pages) until it shows. */
export async function followingLoadMore(page: Page, card: Locator): Promise<Locator> {
  for (let pages = 0; pages < 10 && (await card.count()) === 0; pages++) {
    const more = page.getByRole("link", { name: "Load more" });
    if ((await more.count()) === 0) break;
    const before = page.url();
    await more.click();
    await expect(page).not.toHaveURL(before);
  }
  await expect(card).toBeVisible();
  return card;
}

/**
 * Signs a new client up and confirms their e-mail from the local outbox (their gigs publish at
 * once); returns the address. Their password is NEW_CLIENT_PASSWORD.
 */
export async function confirmedNewClient(page: Page, fullName = "Lena Lists"): Promise<string> {
  const email = `client-${randomUUID()}@example.com`;
  await signUpByForm(page, "/auth", "Consumer", fullName, email);
  await expect(page).toHaveURL("/");
  await confirmFromOutbox(page, email, "E-mail confirmed. Your gigs are now published.");
  return email;
}

/** Signs up on the Sign Up tab of `authUrl` as a person would, as `type`, with NEW_CLIENT_PASSWORD; the caller checks where it lands. */
export async function signUpByForm(page: Page, authUrl: string, type: "Consumer" | "Digger", fullName: string, email: string) {
  await page.goto(authUrl);
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByRole("radio", { name: new RegExp(`^${type}`) }).click();
  await page.getByLabel("Full Name").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(NEW_CLIENT_PASSWORD);
  await page.getByLabel("I confirm I am 18 or older").check();
  const signUp = () => {
    const answer = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/auth.data");
    return page.getByRole("button", { name: "Sign Up", exact: true }).click().then(() => answer);
  };
  if ((await signUp()).status() === 429) {
    // Better Auth allows ten sign-ups a minute per client address (server/auth/auth.ts), and the
    // suite's workers all sign up from loopback: a refused one waits out the minute, once.
    test.info().setTimeout(test.info().timeout + 70_000);
    await page.waitForTimeout(61_000);
    await signUp();
  }
}

/** Opens the confirmation link sent to `email` from the local outbox and confirms, as its owner would; `said` is the notice. */
export async function confirmFromOutbox(page: Page, email: string, said: string) {
  await page.goto(outboxOf(email));
  const message = page.getByRole("listitem").filter({ hasText: `To ${email}` }).filter({ hasText: "Confirm your e-mail for Digs & Gigs" });
  await message.first().getByRole("link").first().click();
  await page.getByRole("button", { name: "Confirm my e-mail" }).click();
  await expect(page.getByText(said)).toBeVisible();
}

export const NEW_CLIENT_PASSWORD = "secret-pass";

/**
 * The local outbox (/dev/mail) for one address. The whole outbox shows only the newest 50
 * e-mails of every test running beside this one, and a test posting 21 gigs sends dozens of
 * lead alerts: an e-mail read from it could be pushed out of view.
 */
export function outboxOf(address: string): string {
  return `/dev/mail?to=${encodeURIComponent(address)}`;
}

/**
 * The toast saying `text` (sonner's toasts), so that a check of the notice is not confused by
 * the same message beside its field (decision 0027).
 */
export function toastSaying(page: Page, text: string): Locator {
  return page.locator("[data-sonner-toast]").filter({ hasText: text });
}

/** A new digger's sign-up address, unique to the run. */
const newDiggerEmail = () => `digger-${crypto.randomUUID()}@example.com`;

/**
 * Signs up a new digger through the form and fills the registration's required fields (a
 * random handle, which it returns), short of choosing photos and pressing Create Digger Profile.
 */
export async function startDiggerRegistration(page: Page, email = newDiggerEmail()): Promise<string> {
  await signUpByForm(page, "/auth?type=digger&redirect=%2Fdigger-registration", "Digger", "Fern Photos", email);
  await expect(page).toHaveURL("/digger-registration");
  const handle = `fern_${crypto.randomUUID().slice(0, 6)}`;
  await page.getByLabel("Handle").fill(handle);
  await page.getByLabel("Business Name").fill("Fern Decks LLC");
  await page.getByLabel("Phone").fill("(555) 010-5050");
  await page.getByLabel("Location").fill("Eugene, OR");
  await page.getByLabel("Profession").fill("Deck builder");
  await page.getByLabel("Bio").fill("Cedar and composite decks, railings and stairs.");
  await page.getByRole("checkbox", { name: "Handyman Services", exact: true }).first().check();
  await page.getByLabel("Reference Name").fill("Rae Reference");
  await page.getByLabel("Reference Email").fill("rae@example.com");
  await page.getByLabel("I agree to the").check();
  return handle;
}

/**
 * After creating a profile the digger is on Browse Gigs (their categories and city chosen):
 * this goes on to their profile through the top bar's My Profile; returns its path.
 */
export async function openMyNewProfile(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/browse-gigs\?category=/);
  // A CSS locator: on a phone the link is in the closed menu, hidden.
  const profile = await page.locator("header a", { hasText: /^My Profile$/ }).first().getAttribute("href");
  expect(profile).toMatch(/^\/digger\/[0-9a-f-]{36}$/);
  await page.goto(profile!);
  return profile!;
}

/**
 * A new digger, signed up and registered through the real forms, their e-mail confirmed from the
 * outbox (a digger buys leads only then: issue 45); returns the page, on their profile, and the handle.
 */
export async function newDigger(browser: Browser): Promise<{ page: Page; handle: string; email: string }> {
  const page = await newPage(browser);
  const email = newDiggerEmail();
  const handle = await startDiggerRegistration(page, email);
  await page.getByRole("button", { name: "Create Digger Profile" }).click();
  await expect(page.getByText("Profile created successfully!")).toBeVisible();
  const profile = await openMyNewProfile(page);
  await expect(page.getByRole("heading", { level: 1, name: handle })).toBeVisible();
  await confirmFromOutbox(page, email, "E-mail confirmed.");
  await page.goto(profile);
  await expect(page.getByRole("heading", { level: 1, name: handle })).toBeVisible();
  return { page, handle, email };
}
