import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { expect, test } from "./fixtures.ts";
import { plainPdf } from "../support/pdf.ts";
import { boughtLeadThread, DEMO, signedInPage, toastSaying } from "./helpers.ts";


test("a digger attaches a photo and a PDF to a message; the client sees the thumbnail and downloads the PDF; another type is refused with its words", async ({ browser }, testInfo) => {
  const title = `Replace a cracked tile ${randomUUID().slice(0, 6)}`;
  const { client, digger, threadUrl } = await boughtLeadThread(browser, "Tess Tiles", title);

  // A text file, whatever it is called, is refused in the browser with the server's words, and nothing is sent.
  await digger.getByLabel("Message").fill("Here is a note");
  await digger.getByLabel("Attach files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just text") });
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastSaying(digger, "Attach JPEG, PNG, WebP or PDF files up to 10 MB")).toBeVisible();
  await expect(digger.getByLabel("Message")).toHaveValue("Here is a note");

  const photo = await sharp({ create: { width: 640, height: 420, channels: 3, background: "#8e6e53" } }).png().toBuffer();
  await digger.getByLabel("Message").fill("Photo of similar work, and my quote attached.");
  await digger.getByLabel("Attach files").setInputFiles([
    { name: "tile-work.png", mimeType: "image/png", buffer: photo },
    { name: "Quote for tiles.pdf", mimeType: "application/pdf", buffer: await plainPdf() },
  ]);
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  const log = digger.getByRole("log");
  await expect(log.getByText("Photo of similar work, and my quote attached.")).toBeVisible();
  await expect(log.getByRole("img", { name: "tile-work.png" })).toBeVisible();
  await expect(log.getByRole("link", { name: /Quote for tiles\.pdf/ })).toBeVisible();
  await expect(digger.getByLabel("Message")).toHaveValue("");

  // The client: the thumbnail is loaded from the private route, the PDF link downloads the file by its name.
  await client.goto(new URL(threadUrl).pathname);
  const image = client.getByRole("log").getByRole("img", { name: "tile-work.png" });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  const [download] = await Promise.all([client.waitForEvent("download"), client.getByRole("log").getByRole("link", { name: /Quote for tiles\.pdf/ }).click()]);
  expect(download.suggestedFilename()).toBe("Quote for tiles.pdf");

  // A stranger gets the 404 page at the image's address.
  const src = await image.getAttribute("src");
  expect(src).toMatch(/^\/messages\/[0-9a-f-]{36}\/attachments\/[0-9a-f-]{36}$/);
  const stranger = await signedInPage(browser, DEMO.client, "/");
  expect((await stranger.goto(src!))?.status()).toBe(404);

  // For the record (issue 32): the thread with attachments on a phone and a desktop.
  for (const width of [375, 1280]) {
    await client.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await client.reload();
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await client.screenshot({ path: testInfo.outputPath(`thread-attachments-${width}.png`) });
  }
});
