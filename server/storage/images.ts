/**
 * Uploaded photos: the real file type is read from the content (never the name or the
 * browser's claim), only JPEG, PNG and WebP are accepted, orientation is applied, metadata
 * (EXIF with GPS positions, camera serials...) is stripped, and the image is resized to fit a
 * box. The result is stored under a name made from its content hash.
 */
import { createHash } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { MAX_PHOTO_BYTES, PHOTO_MESSAGES } from "#core/digger-schemas.ts";
import type { Storage } from "./storage.ts";

/** A file the user must replace; `message` is for them. */
export class ImageRejected extends Error {}

/** Pixels a decoder may allocate: far above any photo, far below a decompression bomb. */
const MAX_INPUT_PIXELS = 60_000_000;

const FORMATS = {
  jpeg: { ext: "jpg", encode: (img: Sharp) => img.jpeg({ quality: 84, mozjpeg: true }) },
  png: { ext: "png", encode: (img: Sharp) => img.png({ compressionLevel: 9 }) },
  webp: { ext: "webp", encode: (img: Sharp) => img.webp({ quality: 84 }) },
} as const;

export interface StoredImage {
  key: string;
  data: Buffer;
}

/** Checks, cleans and resizes one image to fit `maxSide` x `maxSide`, and stores it under `folder/`. */
export async function storeImage(storage: Storage, file: File, folder: string, maxSide: number): Promise<StoredImage> {
  if (file.size > MAX_PHOTO_BYTES) throw new ImageRejected(PHOTO_MESSAGES.size);
  const input = Buffer.from(await file.arrayBuffer());
  if (input.length > MAX_PHOTO_BYTES) throw new ImageRejected(PHOTO_MESSAGES.size);
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw new ImageRejected(PHOTO_MESSAGES.type);
  }
  const target = format && format in FORMATS ? FORMATS[format as keyof typeof FORMATS] : undefined;
  if (!target) throw new ImageRejected(PHOTO_MESSAGES.type);
  let data: Buffer;
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true });
    // sharp writes no metadata unless asked to (withMetadata), so EXIF, XMP and ICC text are gone.
    data = await target.encode(image).toBuffer();
  } catch {
    throw new ImageRejected(PHOTO_MESSAGES.type);
  }
  const key = `${folder}/${createHash("sha256").update(data).digest("hex").slice(0, 40)}.${target.ext}`;
  await storage.put(key, data);
  return { key, data };
}
