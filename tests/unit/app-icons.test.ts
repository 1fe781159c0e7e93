import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { APP_ICONS, ICON_BACKGROUND, appIcons } from "../../pwa/icons.ts";

const publicDir = path.resolve(import.meta.dirname, "../../public");
const pixels = (png: Buffer) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

describe("the app's icons (pwa/icons.ts, npm run icons)", () => {
  it("are the ones drawn from public/favicon.svg now: run `npm run icons` after changing it", async () => {
    for (const icon of await appIcons(publicDir)) {
      const committed = await pixels(readFileSync(path.join(publicDir, icon.file)));
      const drawn = await pixels(icon.png);
      expect(committed.info, icon.file).toMatchObject({ width: icon.size, height: icon.size });
      expect(committed.data.equals(drawn.data), icon.file).toBe(true);
    }
  });

  it("fill a maskable icon to its edges with the mark's background, the mark inside the safe zone", async () => {
    const hex = (data: Buffer, offset: number) => `#${[0, 1, 2].map((i) => data[offset + i]!.toString(16).padStart(2, "0")).join("")}`;
    for (const icon of APP_ICONS.filter((i) => i.maskable)) {
      const { data, info } = await pixels(readFileSync(path.join(publicDir, icon.file)));
      const at = (x: number, y: number) => hex(data, (y * info.width + x) * 4);
      // The corners, which any mask may cut off, and the edge of the safe zone (80 % circle).
      const edge = Math.floor(icon.size * 0.1);
      for (const [x, y] of [[0, 0], [icon.size - 1, icon.size - 1], [edge, Math.floor(icon.size / 2)]] as const) {
        expect(at(x, y), `${icon.file} at ${x},${y}`).toBe(ICON_BACKGROUND);
      }
    }
  });

  it("are every icon the manifest names, at its size", () => {
    const icons = (JSON.parse(readFileSync(path.join(publicDir, "manifest.webmanifest"), "utf8")) as { icons: Array<{ src: string; sizes: string; purpose: string }> }).icons;
    for (const icon of icons) {
      const made = APP_ICONS.find((i) => `/${i.file}` === icon.src);
      expect(made, icon.src).toBeDefined();
      expect(icon.sizes).toBe(`${made!.size}x${made!.size}`);
      expect(icon.purpose).toBe(made!.maskable ? "maskable" : "any");
    }
  });
});
