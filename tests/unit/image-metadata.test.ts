/**
 * Message images lose their metadata before they are stored (server/messages/image-metadata.ts,
 * decision 0055): real JPEG, PNG and WebP files written by libvips (sharp) with GPS EXIF, XMP,
 * text chunks and an orientation come out with no EXIF but the orientation, no XMP, no text,
 * the same pixels and the colour profile, and still decode.
 */
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { stripImageMetadata } from "../../server/messages/image-metadata.ts";

const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="XmpSecretCreator"/></rdf:RDF></x:xmpmeta>';
const EXIF = {
  IFD0: { Artist: "Secret Person", ImageDescription: "Front door of Secret House" },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 2637/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 3963/100" },
};

/** A small photo with a gradient (so that pixels differ), GPS EXIF, XMP, an ICC profile and orientation 6. */
function photo(orientation = 6) {
  const width = 48;
  const height = 32;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) pixels.set([(i * 7) % 256, (i * 3) % 256, (i * 11) % 256], i * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } }).withExif(EXIF).withMetadata({ orientation }).withIccProfile("p3").withXmp(XMP);
}

async function pixels(data: Buffer) {
  const { data: raw, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  return { raw, width: info.width, height: info.height };
}

/** What a reader of the file finds in it: metadata that would leak, and whether it draws. */
async function expectClean(original: Buffer, stripped: Buffer, orientation: number | undefined) {
  const before = await sharp(original).metadata();
  expect(before.exif).toBeDefined();
  expect(before.xmp).toBeDefined();
  const after = await sharp(stripped).metadata();
  expect(after.xmp).toBeUndefined();
  expect(after.orientation).toBe(orientation);
  if (orientation === undefined) expect(after.exif).toBeUndefined();
  else expect(after.exif!.length).toBeLessThan(40);
  expect(after.icc?.length).toBe(before.icc?.length);
  for (const secret of ["Secret", "XmpSecretCreator"]) expect(stripped.includes(secret)).toBe(false);
  // No GPS IFD pointer (tag 0x8825) in either byte order.
  expect(stripped.includes(Buffer.from([0x88, 0x25]))).toBe(false);
  expect(stripped.includes(Buffer.from([0x25, 0x88]))).toBe(false);
  expect(await pixels(stripped)).toEqual(await pixels(original));
  expect(stripped.length).toBeLessThan(original.length);
}

describe("stripping an image's metadata", () => {
  it("JPEG: APP1 (EXIF, XMP) goes, the orientation stays as a minimal EXIF, the scan and the ICC profile stay", async () => {
    const original = await photo().jpeg({ quality: 90 }).toBuffer();
    expect(original.includes("Secret")).toBe(true);
    await expectClean(original, stripImageMetadata(original, "image/jpeg")!, 6);
    const progressive = await photo(1).jpeg({ progressive: true }).toBuffer();
    await expectClean(progressive, stripImageMetadata(progressive, "image/jpeg")!, undefined);
  });

  it("JPEG: comments, Photoshop's IPTC block and anything after the end of the image go", async () => {
    const plain = await photo(1).jpeg().toBuffer();
    const segment = (marker: number, text: string) => {
      const body = Buffer.from(text, "latin1");
      const head = Buffer.alloc(4);
      head.writeUInt16BE(marker, 0);
      head.writeUInt16BE(body.length + 2, 2);
      return Buffer.concat([head, body]);
    };
    const extra = Buffer.concat([
      plain.subarray(0, 2),
      segment(0xfffe, "Secret comment"),
      segment(0xffed, "Photoshop 3.0\0Secret IPTC"),
      plain.subarray(2),
      Buffer.from("Secret appended image"),
    ]);
    const stripped = stripImageMetadata(extra, "image/jpeg")!;
    expect(stripped.includes("Secret")).toBe(false);
    expect(stripped.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(await pixels(stripped)).toEqual(await pixels(plain));
  });

  it("PNG: eXIf, text chunks and tIME go, with valid chunks kept", async () => {
    const original = await photo().png().toBuffer();
    // A tEXt chunk before IEND, as an editor writes one.
    const text = Buffer.from("Author\0Secret Person", "latin1");
    const chunk = Buffer.alloc(12 + text.length);
    chunk.writeUInt32BE(text.length, 0);
    chunk.write("tEXt", 4, "latin1");
    text.copy(chunk, 8);
    chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + text.length)), 8 + text.length);
    const withText = Buffer.concat([original.subarray(0, -12), chunk, original.subarray(-12)]);
    await expectClean(withText, stripImageMetadata(withText, "image/png")!, 6);
  });

  it("WebP: the EXIF and XMP chunks go and VP8X's flags follow", async () => {
    const original = await photo().webp({ lossless: true }).toBuffer();
    const stripped = stripImageMetadata(original, "image/webp")!;
    await expectClean(original, stripped, 6);
    expect(stripped.readUInt32LE(4)).toBe(stripped.length - 8);
    const upright = await photo(1).webp().toBuffer();
    const uprightStripped = stripImageMetadata(upright, "image/webp")!;
    await expectClean(upright, uprightStripped, undefined);
    // Flags: no EXIF (0x08), no XMP (0x04), the ICC profile (0x20) still announced.
    expect(uprightStripped[20]! & 0x2c).toBe(0x20);
  });

  it("an image without metadata comes out byte for byte; a cut-short one is refused", async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } }).jpeg().toBuffer();
    expect(stripImageMetadata(plain, "image/jpeg")).toEqual(plain);
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: "#80808080" } }).png().toBuffer();
    expect(stripImageMetadata(png, "image/png")).toEqual(png);
    expect(stripImageMetadata(png.subarray(0, 40), "image/png")).toBeNull();
    const webp = await photo().webp().toBuffer();
    expect(stripImageMetadata(webp.subarray(0, 40), "image/webp")).toBeNull();
    const jpeg = await photo().jpeg().toBuffer();
    // A segment length running past the end.
    expect(stripImageMetadata(jpeg.subarray(0, 30), "image/jpeg")).toBeNull();
  });
});
