import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { LIVE_PATH } from "../../core/live-events.ts";
import { MESSAGE_TEXTS } from "../../core/messages.ts";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { boughtLeadThread, confirmedNewClient, DEMO, signedInPage, toastSaying } from "./helpers.ts";

const seriousViolations = (page: Page) => axeViolations(page, { seriousOnly: true });

test("a digger buys a lead and messages the client from My Leads; the client sees the count, reads it (the digger sees 'Read') and replies; a stranger gets the 404 page", async ({ browser }) => {
  const title = `Patch a drywall hole ${randomUUID().slice(0, 6)}`;
  const { client, digger, threadUrl } = await boughtLeadThread(browser, "Mona Messages", title);
  await expect(digger.getByText("No messages yet. Say hello and tell Mona how you can help.")).toBeVisible();
  // An empty message is refused in the browser, with the server's words.
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastSaying(digger, "Please write a message")).toBeVisible();
  await digger.getByLabel("Message").fill("Hi Mona, I can patch it this week. Photos: https://example.com/work");
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  const log = digger.getByRole("log");
  await expect(log.getByText("Hi Mona, I can patch it this week.")).toBeVisible();
  await expect(log.getByRole("link", { name: "https://example.com/work" })).toHaveAttribute("rel", "nofollow ugc noopener");
  await expect(digger.getByLabel("Message")).toHaveValue("");

  // The client's top bar counts the unread thread; /messages lists it; opening it reads it.
  await client.goto("/my-gigs");
  await expect(client.getByRole("link", { name: "Messages, 1 unread" })).toBeVisible();
  await client.goto("/messages");
  expect(await seriousViolations(client)).toEqual([]);
  const row = client.getByRole("link").filter({ hasText: title });
  await expect(row.getByText("Unread")).toBeVisible();
  await row.click();
  await expect(client.getByRole("log").getByText("Hi Mona, I can patch it this week.")).toBeVisible();
  expect(await seriousViolations(client)).toEqual([]);
  await expect(client.getByRole("link", { name: "Messages", exact: true })).toBeVisible();

  // The digger's thread stays open: 'Read' and the reply come over the live stream, no reload.
  await expect(digger.getByTestId("read-receipt")).toContainText("Read");

  await client.getByLabel("Message").fill("Great, Thursday works.");
  await client.getByRole("button", { name: "Send", exact: true }).click();
  await expect(client.getByRole("log").getByText("Great, Thursday works.")).toBeVisible();
  await expect(digger.getByRole("log").getByText("Great, Thursday works.")).toBeVisible();

  const stranger = await signedInPage(browser, DEMO.client, "/");
  const response = await stranger.goto(threadUrl);
  expect(response?.status()).toBe(404);
  await expect(stranger.getByText("Oops! Page not found")).toBeVisible();
});

test("a message that cannot be sent keeps its text and says so; without JavaScript the form still sends", async ({ browser }) => {
  const title = `Fix a leaking tap ${randomUUID().slice(0, 6)}`;
  const { clientEmail, digger, threadUrl } = await boughtLeadThread(browser, "Nora Network", title);

  await digger.route("**/messages/*.data*", (route) => (route.request().method() === "POST" ? route.abort() : route.continue()));
  await digger.getByLabel("Message").fill("This one is lost on the way");
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastSaying(digger, "Message could not be sent. Try again.")).toBeVisible();
  await expect(digger.getByLabel("Message")).toHaveValue("This one is lost on the way");
  await digger.unrouteAll();

  // The client, without JavaScript: a form post that comes back to the thread.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(`/auth?redirect=${encodeURIComponent(new URL(threadUrl).pathname)}`);
  await plain.getByLabel("Email").fill(clientEmail);
  await plain.getByLabel("Password", { exact: true }).fill("secret-pass");
  await plain.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(plain).toHaveURL(threadUrl);
  await plain.getByLabel("Message").fill("Sent without scripts");
  await plain.getByRole("button", { name: "Send", exact: true }).click();
  await expect(plain).toHaveURL(threadUrl);
  await expect(plain.getByRole("log").getByText("Sent without scripts")).toBeVisible();
  await context.close();
});

/** The requests for the live stream a page makes (method each), and the errors its console shows. */
function watchLive(page: Page): { requests: string[]; errors: string[] } {
  const seen = { requests: [] as string[], errors: [] as string[] };
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === LIVE_PATH) seen.requests.push(request.method());
  });
  page.on("console", (message) => {
    if (message.type() === "error") seen.errors.push(message.text());
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  return seen;
}

test("live updates (issue 45): an account without a conversation opens no stream, and a stream answered 204 is not opened again; no error either way", async ({ browser }) => {
  // A new confirmed client, no thread yet: its Messages page opens nothing.
  const newcomer = await newPage(browser);
  await confirmedNewClient(newcomer, "Nell Newcomer");
  const quiet = watchLive(newcomer);
  await newcomer.goto("/messages");
  await expect(newcomer.getByText(MESSAGE_TEXTS.noThreads)).toBeVisible();
  await newcomer.waitForTimeout(1_000);
  expect(quiet).toEqual({ requests: [], errors: [] });

  // The demo digger has threads, so the page opens the stream; answered 204 (what an account
  // that may not hold one gets), the page asks once why (HEAD), and stays closed past the 10 s
  // after which it would have opened it again.
  const digger = await signedInPage(browser, DEMO.digger, "/");
  await digger.route(`**${LIVE_PATH}*`, (route) => route.fulfill({ status: 204, headers: { "cache-control": "no-store" } }));
  const refused = watchLive(digger);
  await digger.goto("/messages");
  await expect.poll(() => refused.requests).toEqual(["GET", "HEAD"]);
  await digger.waitForTimeout(12_000);
  expect(refused).toEqual({ requests: ["GET", "HEAD"], errors: [] });
});
