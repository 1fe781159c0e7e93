/**
 * Strips the metadata of a message's image before it is stored (decision 0055): camera EXIF
 * (GPS position, time, device, serial numbers, an embedded thumbnail), XMP, IPTC / Photoshop
 * blocks, comments and text chunks. Losslessly: the compressed image data is copied byte for
 * byte, never decoded or re-encoded, so the pixels are exactly those sent and a decompression
 * bomb costs nothing here. Kept: what draws the image (JPEG's tables and scans, PNG's chunks of a
 * keep-list, WebP's bitstream, alpha and animation), its colour profile (ICC), and
 * its EXIF orientation, rewritten as a minimal EXIF block that holds nothing else (a phone's
 * photo would otherwise show on its side). Anything after the image's end (JPEG's appended
 * multi-picture images, bytes after PNG's IEND or past WebP's RIFF size) is dropped.
 *
 * The file is held whole already (at most 10 MB, attachments.ts); the result is one new
 * buffer of about its size (a renamed iCCP may add 10 bytes), built from slices of it. A file whose structure cannot be walked
 * returns null: it is refused like any other file that is not an image of ours.
 */
import { crc32 } from "node:zlib";

type ImageType = "image/jpeg" | "image/png" | "image/webp";

export function stripImageMetadata(data: Buffer, type: ImageType): Buffer | null {
  try {
    if (type === "image/jpeg") return stripJpeg(data);
    if (type === "image/png") return stripPng(data);
    return stripWebp(data);
  } catch (error) {
    // A length pointing past the end: not a well-formed image.
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** EXIF orientation 2 to 8 (1 is upright and needs no block), from a TIFF structure, or null. */
function orientationOf(tiff: Buffer): number | null {
  if (tiff.length < 8) return null;
  const order = tiff.toString("latin1", 0, 2);
  if (order !== "II" && order !== "MM") return null;
  const little = order === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) === 0x0112 && u16(entry + 2) === 3) {
      const value = u16(entry + 8);
      return value >= 2 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** Reads the orientation, or null when the block is not TIFF or is cut short (then it is simply dropped). */
function safeOrientationOf(tiff: Buffer): number | null {
  try {
    return orientationOf(tiff);
  } catch {
    return null;
  }
}

/** A TIFF structure holding the orientation tag and nothing else (big-endian, one IFD of one entry). */
function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write("MM", 0, "latin1");
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  // Bytes 20-21: the value's padding; 22-25: no next IFD.
  return tiff;
}

const EXIF_HEADER = Buffer.from("Exif\0\0", "latin1");
const startsWith = (data: Buffer, at: number, text: string) => data.toString("latin1", at, at + text.length) === text;

/**
 * JPEG: the segments before each scan are walked; APP0 is kept only as JFIF (not JFXX, which
 * carries a thumbnail), APP2 only as an ICC profile, APP14 only as Adobe's colour transform;
 * every other APPn (EXIF and XMP in APP1, IPTC in APP13, MPF, makers' blocks) and COM go.
 * Each scan's entropy-coded data is copied up to the next marker; the file ends at EOI.
 */
function stripJpeg(data: Buffer): Buffer | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  const kept: Buffer[] = [data.subarray(0, 2)];
  let orientation: number | null = null;
  let afterApp0 = 1; // where a minimal EXIF block goes: after JFIF when there is one
  let pos = 2;
  for (;;) {
    if (pos >= data.length) break; // cut short without EOI: kept as it came (browsers draw what is there)
    if (data[pos] !== 0xff) return null;
    while (data[pos + 1] === 0xff) pos++; // fill bytes
    const marker = data[pos + 1];
    if (marker === undefined) return null;
    if (marker === 0xd9) {
      kept.push(data.subarray(pos, pos + 2));
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(data.subarray(pos, pos + 2));
      pos += 2;
      continue;
    }
    const length = data.readUInt16BE(pos + 2);
    const end = pos + 2 + length;
    if (length < 2 || end > data.length) return null;
    const body = pos + 4;
    const isApp = marker >= 0xe0 && marker <= 0xef;
    if (isApp || marker === 0xfe) {
      if (marker === 0xe1 && startsWith(data, body, "Exif\0\0")) orientation ??= safeOrientationOf(data.subarray(body + 6, end));
      const keep =
        (marker === 0xe0 && startsWith(data, body, "JFIF\0")) ||
        (marker === 0xe2 && startsWith(data, body, "ICC_PROFILE\0")) ||
        (marker === 0xee && startsWith(data, body, "Adobe"));
      if (keep) {
        kept.push(data.subarray(pos, end));
        if (marker === 0xe0 && kept.length === 2) afterApp0 = 2;
      }
      pos = end;
      continue;
    }
    kept.push(data.subarray(pos, end));
    pos = end;
    if (marker === 0xda) {
      // Entropy-coded data: up to the next marker that is not a stuffed 0xFF00 nor a restart.
      let i = pos;
      while (i < data.length - 1) {
        const next = data[i + 1]!;
        if (data[i] === 0xff && next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
        i++;
      }
      if (i >= data.length - 1) i = data.length;
      kept.push(data.subarray(pos, i));
      pos = i;
    }
  }
  if (orientation !== null) {
    const payload = Buffer.concat([EXIF_HEADER, orientationTiff(orientation)]);
    const header = Buffer.alloc(4);
    header.writeUInt16BE(0xffe1, 0);
    header.writeUInt16BE(payload.length + 2, 2);
    kept.splice(afterApp0, 0, header, payload);
  }
  return Buffer.concat(kept);
}

const PNG_SIGNATURE_LENGTH = 8;
/**
 * The PNG chunks kept (a keep-list: any other chunk goes, private and unknown ones included):
 * what draws the image (IHDR, PLTE, IDAT, IEND, and APNG's acTL, fcTL, fdAT for an animation),
 * what makes its colours right (tRNS transparency, gAMA, cHRM, sRGB, iCCP's profile, cICP's
 * code points, sBIT's significant bits) and pHYs (the pixel aspect and size, two numbers and a
 * unit, no text). Gone: tEXt, zTXt, iTXt (author, software, comments, XMP), eXIf (rewritten
 * with the orientation alone), tIME, bKGD, hIST, sPLT (a named palette), and everything else.
 */
const PNG_KEPT = new Set(["IHDR", "PLTE", "IDAT", "IEND", "acTL", "fcTL", "fdAT", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "cICP", "sBIT", "pHYs"]);
/** iCCP's profile name is free text (1 to 79 bytes): the chunk is written again under this one. */
const ICC_NAME = "ICC Profile";

function pngChunk(type: string, body: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write(type, 4, "latin1");
  body.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return chunk;
}

/** iCCP: name, NUL, compression method, compressed profile; the profile kept, the name replaced. */
function anonymousIccp(body: Buffer): Buffer | null {
  const end = body.indexOf(0);
  if (end < 1 || end > 79 || end + 2 > body.length) return null;
  return pngChunk("iCCP", Buffer.concat([Buffer.from(`${ICC_NAME}\0`, "latin1"), body.subarray(end + 1)]));
}

/** PNG: the kept chunks only, up to IEND; an orientation goes back as a minimal eXIf before the image data. */
function stripPng(data: Buffer): Buffer | null {
  const kept: Buffer[] = [data.subarray(0, PNG_SIGNATURE_LENGTH)];
  let orientation: number | null = null;
  let beforeData = -1;
  let pos = PNG_SIGNATURE_LENGTH;
  let ended = false;
  while (!ended) {
    if (pos + 12 > data.length) return null;
    const length = data.readUInt32BE(pos);
    const type = data.toString("latin1", pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (end > data.length) return null;
    const body = data.subarray(pos + 8, pos + 8 + length);
    if (type === "eXIf") orientation ??= safeOrientationOf(body);
    if (type === "iCCP") {
      const chunk = anonymousIccp(body);
      if (!chunk) return null;
      kept.push(chunk);
    } else if (PNG_KEPT.has(type)) {
      if (type === "IDAT" && beforeData < 0) beforeData = kept.length;
      kept.push(data.subarray(pos, end));
    }
    ended = type === "IEND";
    pos = end;
  }
  if (orientation !== null && beforeData > 0) kept.splice(beforeData, 0, pngChunk("eXIf", orientationTiff(orientation)));
  return Buffer.concat(kept);
}

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/** WebP: the RIFF chunks but EXIF and XMP, with VP8X's flags to match; an orientation goes back as a minimal EXIF chunk. */
function stripWebp(data: Buffer): Buffer | null {
  if (data.length < 12) return null;
  const riffEnd = 8 + data.readUInt32LE(4);
  if (riffEnd > data.length) return null;
  const riff = Buffer.alloc(12);
  const kept: Buffer[] = [riff];
  let vp8x: Buffer | null = null;
  let orientation: number | null = null;
  let pos = 12;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) return null;
    const fourCC = data.toString("latin1", pos, pos + 4);
    const size = data.readUInt32LE(pos + 4);
    const end = pos + 8 + size + (size % 2);
    if (pos + 8 + size > riffEnd) return null;
    if (fourCC === "EXIF") {
      let tiff = data.subarray(pos + 8, pos + 8 + size);
      if (startsWith(tiff, 0, "Exif\0\0")) tiff = tiff.subarray(6);
      orientation ??= safeOrientationOf(tiff);
    } else if (fourCC !== "XMP ") {
      const chunk = data.subarray(pos, Math.min(end, riffEnd));
      if (fourCC === "VP8X") {
        // The one chunk changed: a copy, so the sender's buffer stays as it came.
        vp8x = Buffer.from(chunk);
        kept.push(vp8x);
      } else kept.push(chunk);
    }
    pos = end;
  }
  if (vp8x) {
    vp8x[8] = (vp8x[8]! & ~(VP8X_EXIF | VP8X_XMP)) | (orientation !== null ? VP8X_EXIF : 0);
    if (orientation !== null) {
      const tiff = orientationTiff(orientation);
      const header = Buffer.alloc(8);
      header.write("EXIF", 0, "latin1");
      header.writeUInt32LE(tiff.length, 4);
      kept.push(header, tiff);
    }
  }
  const size = kept.reduce((sum, chunk) => sum + chunk.length, 0);
  riff.write("RIFF", 0, "latin1");
  riff.writeUInt32LE(size - 8, 4);
  riff.write("WEBP", 8, "latin1");
  return Buffer.concat(kept, size);
}
