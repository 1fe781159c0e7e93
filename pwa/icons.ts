/**
 * The app's icons, drawn from the one source image (public/favicon.svg) with sharp: plain ones
 * (the mark as it is) and maskable ones (the mark shrunk into the middle 80 %, on its background
 * colour to the edges). pwa/make-icons.ts writes them into public/.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const ICON_SOURCE = "favicon.svg";
/** The mark's background: the favicon's square, to the edges of a maskable icon. */
export const ICON_BACKGROUND = "#d97706";

export interface AppIcon {
  file: string;
  size: number;
  maskable: boolean;
}

export const APP_ICONS: AppIcon[] = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "icon-maskable-192.png", size: 192, maskable: true },
  { file: "icon-maskable-512.png", size: 512, maskable: true },
  { file: "apple-touch-icon.png", size: 180, maskable: true },
];

/** How much of a maskable icon the mark takes: inside the safe zone, a circle of 80 %. */
const MASKABLE_MARK = 0.56;

async function draw(svg: Buffer, { size, maskable }: AppIcon): Promise<Buffer> {
  if (!maskable) return sharp(svg, { density: 72 * (size / 32) }).resize(size, size).png().toBuffer();
  const mark = Math.round(size * MASKABLE_MARK);
  const inner = await sharp(svg, { density: 72 * (mark / 32) }).resize(mark, mark).png().toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background: ICON_BACKGROUND } })
    .composite([{ input: inner, gravity: "center" }])
    .png()
    .toBuffer();
}

export async function appIcons(publicDir: string): Promise<Array<AppIcon & { png: Buffer }>> {
  const svg = readFileSync(path.join(publicDir, ICON_SOURCE));
  return Promise.all(APP_ICONS.map(async (icon) => ({ ...icon, png: await draw(svg, icon) })));
}
