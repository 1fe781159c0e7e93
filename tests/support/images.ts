/** Test images made with sharp: real JPEG, PNG and WebP files, with or without metadata. */
import sharp from "sharp";

export type ImageFormat = "jpeg" | "png" | "webp";

/** A solid-colour image; `exif` adds camera and GPS-like metadata that the upload must strip. */
export async function makeImage(format: ImageFormat = "jpeg", { width = 64, height = 48, exif = false } = {}): Promise<Buffer> {
  let image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });
  if (exif) image = image.withExif({ IFD0: { Make: "SecretCam", Model: "Leaky 3000", Copyright: "private-owner" } });
  return image.toFormat(format).toBuffer();
}

export const MIME: Record<ImageFormat, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** What a served upload carries (server/app.ts): the type it was stored as, and headers that keep browsers to it. */
export const uploadHeaders = (contentType: string) => ({
  "content-type": contentType,
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'",
  "cache-control": "public, max-age=31536000, immutable",
});
/** The same headers of `response`, to compare with `uploadHeaders`. */
export const headersOfUpload = (response: Response) =>
  Object.fromEntries(Object.keys(uploadHeaders("")).map((name) => [name, response.headers.get(name)]));
