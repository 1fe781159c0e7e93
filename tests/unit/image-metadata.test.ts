/**
 * Message images lose their metadata before they are stored (server/conversations/image-metadata.ts,
 * decision 0055): real JPEG, PNG and WebP files written by libvips (sharp) with GPS EXIF, XMP,
 * text chunks and an orientation come out with no EXIF but the orientation, no XMP, no text,
 * the same pixels and the colour profile, and still decode.
 */
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { stripImageMetadata } from "../../server/conversations/image-metadata.ts";

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

  /** A PNG chunk with its CRC. */
  const chunk = (type: string, body: Buffer) => {
    const out = Buffer.alloc(12 + body.length);
    out.writeUInt32BE(body.length, 0);
    out.write(type, 4, "latin1");
    body.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
    return out;
  };
  /** The chunk types of a PNG, in order. */
  const chunkTypes = (png: Buffer) => {
    const types: string[] = [];
    for (let pos = 8; pos < png.length; pos += 12 + png.readUInt32BE(pos)) types.push(png.toString("latin1", pos + 4, pos + 8));
    return types;
  };

  it("PNG: eXIf, text chunks and tIME go, with valid chunks kept", async () => {
    const original = await photo().png().toBuffer();
    // A tEXt chunk before IEND, as an editor writes one.
    const withText = Buffer.concat([original.subarray(0, -12), chunk("tEXt", Buffer.from("Author\0Secret Person", "latin1")), original.subarray(-12)]);
    await expectClean(withText, stripImageMetadata(withText, "image/png")!, 6);
  });

  it("PNG: only the chunks of the keep-list stay; private and unknown ones go, iCCP's name is replaced", async () => {
    const original = await photo().png().toBuffer();
    const ihdrEnd = 8 + 25;
    const types = chunkTypes(original);
    expect(types).toContain("iCCP");
    // The profile sharp wrote, under a name that says who made it.
    let iccp = 8;
    while (original.toString("latin1", iccp + 4, iccp + 8) !== "iCCP") iccp += 12 + original.readUInt32BE(iccp);
    const iccpBody = original.subarray(iccp + 8, iccp + 8 + original.readUInt32BE(iccp));
    const namedIccp = chunk("iCCP", Buffer.concat([Buffer.from("Secret Studio", "latin1"), iccpBody.subarray(iccpBody.indexOf(0))]));
    const withoutIccp = Buffer.concat([original.subarray(0, iccp), original.subarray(iccp + 12 + iccpBody.length)]);
    const extra = Buffer.concat([
      withoutIccp.subarray(0, ihdrEnd),
      namedIccp,
      chunk("prVt", Buffer.from("Secret private chunk", "latin1")),
      chunk("tIME", Buffer.from([0x07, 0xea, 11, 26, 12, 0, 0])),
      chunk("zTXt", Buffer.from("Comment\0\0Secret", "latin1")),
      chunk("iTXt", Buffer.from("XML:com.adobe.xmp\0\0\0\0\0Secret XMP", "latin1")),
      chunk("sPLT", Buffer.from("Secret palette\0\x08", "latin1")),
      chunk("bKGD", Buffer.from([0, 0, 0, 0, 0, 0])),
      withoutIccp.subarray(ihdrEnd, -12),
      chunk("vpAg", Buffer.from("Secret after the image data", "latin1")),
      withoutIccp.subarray(-12),
    ]);
    expect(chunkTypes(extra)).toEqual(expect.arrayContaining(["prVt", "tIME", "zTXt", "iTXt", "sPLT", "bKGD", "vpAg", "eXIf", "iCCP"]));
    const stripped = stripImageMetadata(extra, "image/png")!;
    expect(stripped.includes("Secret")).toBe(false);
    const kept = chunkTypes(stripped);
    expect(kept.filter((type) => type !== "IDAT")).toEqual(["IHDR", "iCCP", "pHYs", "eXIf", "IEND"]);
    expect(stripped.includes("ICC Profile\0")).toBe(true);
    const after = await sharp(stripped).metadata();
    expect(after.icc?.length).toBe((await sharp(original).metadata()).icc?.length);
    expect(after.orientation).toBe(6);
    expect(await pixels(stripped)).toEqual(await pixels(original));
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
