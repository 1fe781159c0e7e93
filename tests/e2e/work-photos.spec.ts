/**
 * Issue 23: the registration's photo inputs show a thumbnail of each chosen file, each with a
 * button that drops it before saving (the form posts exactly what is shown); the profile's work
 * photos open in a lightbox (arrow keys, Previous/Next, Escape, the focus back on the
 * thumbnail), and without JavaScript each is a link to the image. At 375 and 1280 px.
 */
import type { Browser, Locator, Page } from "@playwright/test";
import { makeImage, MIME, type ImageFormat } from "../support/images.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { openMyNewProfile, startDiggerRegistration } from "./helpers.ts";

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  return waitForHydration(await context.newPage());
}

let size = 60;
/** An image file of its own (a size of its own: the store keeps one copy of equal images). */
async function photo(name: string) {
  const format = name.split(".").pop() as ImageFormat;
  size += 4;
  return { name, mimeType: MIME[format], buffer: await makeImage(format, { width: size, height: 48 }) };
}

/** The names of the files the real file input holds (what the form will post). */
const selected = (input: Locator) => input.evaluate((el: HTMLInputElement) => Array.from(el.files ?? []).map((f) => f.name));

for (const width of [375, 1280]) {
  test(`at ${width} px chosen photos show as thumbnails that can be removed, and work photos open in a lightbox`, async ({ browser }) => {
    const page = await pageAt(browser, width);
    const handle = await startDiggerRegistration(page);

    // The profile photo: one thumbnail, removable.
    const profilePhoto = page.getByLabel("Profile Photo");
    await profilePhoto.setInputFiles(await photo("me.png"));
    const chosenProfile = page.getByRole("list", { name: "Chosen profile photo" });
    await expect(chosenProfile.getByRole("img", { name: "me.png" })).toBeVisible();
    await chosenProfile.getByRole("button", { name: "Remove me.png" }).click();
    await expect(chosenProfile).toHaveCount(0);
    expect(await selected(profilePhoto)).toEqual([]);
    await profilePhoto.setInputFiles(await photo("portrait.jpeg"));
    await expect(chosenProfile.getByRole("img", { name: "portrait.jpeg" })).toBeVisible();

    // Work photos: a second pick adds to the first; removing one leaves exactly the others.
    const workPhotos = page.getByLabel("Add Work Photos");
    await workPhotos.setInputFiles([await photo("deck.png"), await photo("stairs.jpeg"), await photo("rail.webp")]);
    const chosenWork = page.getByRole("list", { name: "Chosen work photos" });
    await expect(chosenWork.getByRole("img")).toHaveCount(3);
    await workPhotos.setInputFiles([await photo("porch.png")]);
    await expect(chosenWork.getByRole("img")).toHaveCount(4);
    await chosenWork.getByRole("button", { name: "Remove stairs.jpeg" }).click();
    await expect(chosenWork.getByRole("img")).toHaveCount(3);
    await expect(chosenWork.getByRole("img", { name: "stairs.jpeg" })).toHaveCount(0);
    expect(await selected(workPhotos)).toEqual(["deck.png", "rail.webp", "porch.png"]);
    // Each thumbnail shows its image (an object URL that loaded).
    for (const img of await chosenWork.getByRole("img").all()) {
      await expect(img).toHaveAttribute("src", /^blob:/);
      expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }

    await page.getByRole("button", { name: "Create Digger Profile" }).click();
    await expect(page.getByText("Profile created successfully!")).toBeVisible();
    await openMyNewProfile(page);
    await expect(page.getByRole("heading", { level: 1, name: handle })).toBeVisible();
    await expect(page.getByRole("img", { name: `Profile photo of ${handle}` })).toBeVisible();

    // The lightbox: exactly the three photos posted.
    const gallery = page.getByRole("list", { name: "Work photos" });
    await expect(gallery.getByRole("button", { name: /^Open photo \d of 3$/ })).toHaveCount(3);
    const second = gallery.getByRole("button", { name: "Open photo 2 of 3" });
    await second.click();
    const lightbox = page.getByRole("dialog", { name: "Photo 2 of 3" });
    await expect(lightbox).toBeVisible();
    const large = lightbox.getByRole("img", { name: `Work photo 2 by ${handle}` });
    await expect(large).toBeVisible();
    expect(await large.evaluate((el: HTMLImageElement) => el.naturalWidth > 0)).toBe(true);
    const secondSrc = await large.getAttribute("src");
    const box = await large.boundingBox();
    expect(box!.width).toBeGreaterThan(width < 768 ? 250 : 500);
    expect(await axeViolations(page, { include: '[role="dialog"]' })).toEqual([]);

    await lightbox.getByRole("button", { name: "Next photo" }).click();
    await expect(page.getByRole("dialog", { name: "Photo 3 of 3" }).getByRole("img", { name: `Work photo 3 by ${handle}` })).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("dialog", { name: "Photo 1 of 3" })).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("dialog", { name: "Photo 3 of 3" })).toBeVisible();
    await page.getByRole("button", { name: "Previous photo" }).click();
    await expect(page.getByRole("dialog", { name: "Photo 2 of 3" })).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    // The focus is back on the thumbnail of the photo last shown.
    await expect(gallery.getByRole("button", { name: "Open photo 3 of 3" })).toBeFocused();

    // Without JavaScript each thumbnail is a link to its image.
    const noScript = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(page.url());
    const links = plain.getByRole("list", { name: "Work photos" }).getByRole("link");
    await expect(links).toHaveCount(3);
    const href = await links.nth(1).getAttribute("href");
    expect(href).toBe(secondSrc);
    const image = await plain.request.get(href!);
    expect(image.headers()["content-type"]).toMatch(/^image\//);
    await noScript.close();
  });
}
