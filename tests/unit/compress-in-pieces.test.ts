/**
 * server/web/compression.ts `compressInPieces` (decision 0063): what is written in one turn of
 * the event loop is compressed as one piece and flushed, so a page written in React's 4 KB
 * chunks is as small as the page compressed whole, what is written later still reaches the
 * reader before the stream ends, and large or cancelled bodies neither lose bytes nor throw.
 */
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { COMPRESSION_PIECE_BYTES, compressInPieces } from "../../server/web/compression.ts";

const ENCODINGS = ["br", "gzip", "deflate"] as const;
type Encoding = (typeof ENCODINGS)[number];

const decompressor = (encoding: Encoding) =>
  encoding === "br" ? zlib.createBrotliDecompress() : encoding === "gzip" ? zlib.createGunzip() : zlib.createInflate();
const decompressSync = (encoding: Encoding, bytes: Buffer) =>
  encoding === "br" ? zlib.brotliDecompressSync(bytes) : encoding === "gzip" ? zlib.gunzipSync(bytes) : zlib.inflateSync(bytes);

/** A page-like text: repetitive markup with varying content, about `bytes` long. */
function pageText(bytes: number): Buffer {
  const parts: string[] = [];
  for (let i = 0; parts.join("").length < bytes; i++) {
    parts.push(`<li class="card"><a href="/gig/${i}-${(i * 7919) % 10007}">Fix the fence number ${i}</a><span class="badge">$${i * 13}</span></li>\n`);
  }
  return Buffer.from(parts.join("").slice(0, bytes));
}

/** Writes `body` in `chunk`-byte writes, as React does, and returns all the compressed bytes. */
async function compressInChunks(encoding: Encoding, body: Buffer, chunk: number): Promise<Buffer> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < body.length; i += chunk) controller.enqueue(new Uint8Array(body.subarray(i, i + chunk)));
      controller.close();
    },
  });
  return Buffer.from(await new Response(source.pipeThrough(compressInPieces(encoding))).arrayBuffer());
}

describe("compressInPieces", () => {
  it("compresses a page written in 4 KB chunks about as small as the page compressed whole", async () => {
    const page = pageText(60_000);
    const whole = zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
    const inChunks = await compressInChunks("br", page, 4096);
    expect(zlib.brotliDecompressSync(inChunks).equals(page)).toBe(true);
    // Each 4 KB write compressed on its own came out 1.7 times the whole on a real page.
    expect(inChunks.length).toBeLessThan(whole.length * 1.1);
  });

  for (const encoding of ENCODINGS) {
    it(`${encoding}: what is written before a pause reaches the reader before the stream goes on`, async () => {
      const { writable, readable } = compressInPieces(encoding);
      const writer = writable.getWriter();
      const reader = readable.getReader();
      const inflate = decompressor(encoding);
      let decoded = "";
      inflate.on("data", (data: Buffer) => (decoded += data.toString()));
      const first = pageText(10_000).toString();
      for (let i = 0; i < first.length; i += 4096) await writer.write(Buffer.from(first.slice(i, i + 4096)));
      // Nothing more is written until the reader has decoded all of the first part.
      while (decoded.length < first.length) {
        const { value, done } = await reader.read();
        expect(done).toBe(false);
        await new Promise<void>((resolve) => inflate.write(value, () => resolve()));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(decoded).toBe(first);
      await writer.write(Buffer.from("<p>the rest</p>"));
      await writer.close();
      for (let next = await reader.read(); !next.done; next = await reader.read()) inflate.write(next.value);
      await new Promise((resolve) => inflate.end(resolve));
      expect(decoded).toBe(`${first}<p>the rest</p>`);
    });

    it(`${encoding}: a body many pieces long comes out whole, byte for byte`, async () => {
      // Incompressible and larger than several pieces: the compressor's input fills and writes wait.
      const body = Buffer.concat([randomBytes(3 * COMPRESSION_PIECE_BYTES), pageText(5 * COMPRESSION_PIECE_BYTES)]);
      const compressed = await compressInChunks(encoding, body, 16_384);
      expect(decompressSync(encoding, compressed).equals(body)).toBe(true);
      // A piece a turn of the event loop: 3-6 s when the machine's two cores also run other suites.
    }, 30_000);
  }

  it("a reader that goes away midway stops the source (a page's render) without an error thrown elsewhere", async () => {
    let cancelled: unknown = false;
    let pulls = 0;
    // A source that would write forever, 4 KB at a time, as a page's render streams.
    const source = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        await new Promise((resolve) => setImmediate(resolve));
        controller.enqueue(new Uint8Array(pageText(4096)));
      },
      cancel(reason) {
        cancelled = reason ?? true;
      },
    });
    const reader = source.pipeThrough(compressInPieces("br")).getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    await expect.poll(() => cancelled).not.toBe(false);
    const pullsAtCancel = pulls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulls).toBe(pullsAtCancel);
  });
});
