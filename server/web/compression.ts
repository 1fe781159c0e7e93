/**
 * Brotli, gzip or deflate for what is made per request (pages, data requests, JSON; and an
 * asset without its precompressed copy, precompressed-assets.ts), with hono's `compress` rules
 * (hono/dist/middleware/compress) but node's zlib: brotli at quality 1 for a browser that takes
 * it (every current one), else gzip or deflate at level 2, instead of CompressionStream's gzip 6:
 * a quarter of the CPU for the same bytes with brotli, half for some 12% more with gzip
 * (docs/decisions/0058-precompressed-assets-and-level-2-gzip.md).
 *
 * What is written in one turn of the event loop is compressed in one piece (decision 0063):
 * React writes a page in 4 KB chunks, and brotli at quality 1 compresses each write on its own,
 * so a page in 4 KB pieces came out 1.7 times the size of the same page compressed whole, for
 * 2.5 times the CPU. Each piece is flushed, so what a page streams later (a deferred boundary,
 * React Router's deferred data) still reaches the browser as soon as it is written. An answer
 * whose length is known (a page rendered whole, decision 0065) is compressed in one call,
 * without the streams. An answer to a POST of unknown length goes as it is (decision 0084).
 *
 * A page rendered whole hands its bytes over with its Response (`wholeResponse`), and they are
 * compressed in the request's own turn, not on libuv's threads (decision 0087): reading them
 * back out of the Response cost an undici Response and its stream, and the thread pool's round
 * trip cost three to four times the compression's own CPU.
 */
import { once } from "node:events";
import { promisify } from "node:util";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { parseAccept } from "hono/utils/accept";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";

/** zlib's level for answers compressed as they are sent, in gzip or deflate (decision 0058). */
const DYNAMIC_COMPRESSION_LEVEL = 2;
/** Brotli's quality for answers compressed as they are sent (decision 0058). */
const BROTLI_QUALITY = 1;
/** Smaller answers, by their Content-Length, go as they are. */
const COMPRESSION_THRESHOLD = 1024;

const COMPRESSORS = {
  // Brotli's quality 1: a quarter of gzip 6's time for the same size on a page (decision 0058).
  br: () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: () => zlib.createGzip({ level: DYNAMIC_COMPRESSION_LEVEL }),
  deflate: () => zlib.createDeflate({ level: DYNAMIC_COMPRESSION_LEVEL }),
};
type Encoding = keyof typeof COMPRESSORS;
const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const deflate = promisify(zlib.deflate);
const BROTLI_PARAMS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } };
const ZLIB_PARAMS = { level: DYNAMIC_COMPRESSION_LEVEL };
/** The same compressors, for a whole answer in one call, on libuv's threads (off the event loop). */
const WHOLE: Record<Encoding, (input: Buffer) => Promise<Buffer>> = {
  br: (input) => brotliCompress(input, BROTLI_PARAMS),
  gzip: (input) => gzip(input, ZLIB_PARAMS),
  deflate: (input) => deflate(input, ZLIB_PARAMS),
};
/** And in the request's own turn (decision 0087): a page's 10-150 KB take 0.05-0.3 ms at these levels. */
const WHOLE_NOW: Record<Encoding, (input: Buffer) => Buffer> = {
  br: (input) => zlib.brotliCompressSync(input, BROTLI_PARAMS),
  gzip: (input) => zlib.gzipSync(input, ZLIB_PARAMS),
  deflate: (input) => zlib.deflateSync(input, ZLIB_PARAMS),
};
/** An answer of known length up to this is read and compressed whole; a longer one in pieces. */
const WHOLE_COMPRESSION_MAX_BYTES = 1024 * 1024;
/** Bytes handed over whole up to this are compressed in the request's turn; above, on the thread pool. */
const COMPRESS_NOW_MAX_BYTES = 256 * 1024;

/**
 * Where an answer made whole in memory (`wholeResponse`) keeps its bytes, for compression to take
 * them as they are. A registered symbol, not a WeakMap: the server build bundles its own copy of
 * this module (app/render-page.server.ts), and server/app.ts runs this one.
 */
const WHOLE_BODY = Symbol.for("digs-and-gigs.whole-body");
type WithWholeBody = Response & { [WHOLE_BODY]?: Buffer };

/**
 * An answer whose bytes are all in memory (a page rendered whole, app/render-page.server.ts),
 * with its Content-Length set: compression takes the bytes from here, without reading the
 * Response's body.
 */
export function wholeResponse(body: Buffer, init: { status: number; headers: Headers }): Response {
  init.headers.set("Content-Length", String(body.byteLength));
  const response: WithWholeBody = new Response(body as Uint8Array<ArrayBuffer>, init);
  response[WHOLE_BODY] = body;
  return response;
}
/** How each encoding ends a piece so that the browser can decode all of it (without brotli's or deflate's full reset). */
const FLUSH: Record<Encoding, number> = {
  br: zlib.constants.BROTLI_OPERATION_FLUSH,
  gzip: zlib.constants.Z_SYNC_FLUSH,
  deflate: zlib.constants.Z_SYNC_FLUSH,
};
/** A piece is compressed at once when it reaches this, without waiting for the turn to end. */
export const COMPRESSION_PIECE_BYTES = 64 * 1024;
/** In order of preference at equal q-values. */
const ENCODINGS: Encoding[] = ["br", "gzip", "deflate"];
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/** The encoding with the highest q-value the client gave (`*` stands for any not named), if any above 0. */
function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const accepts = parseAccept(acceptEncoding);
  const wildcard = accepts.find((accept) => accept.type === "*")?.q;
  let best: { encoding: Encoding; q: number } | undefined;
  for (const encoding of ENCODINGS) {
    const q = accepts.find((accept) => accept.type.toLowerCase() === encoding)?.q ?? wildcard ?? 0;
    if (q === 1) return encoding;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}

export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const { headers } = c.res;
    const length = headers.get("Content-Length");
    if (
      c.res.status === 206 ||
      headers.has("Content-Encoding") ||
      headers.has("Transfer-Encoding") ||
      c.req.method === "HEAD" ||
      (length && Number(length) < COMPRESSION_THRESHOLD) ||
      // A form's answer streamed without a length (React Router's `.data` answer to an action: a
      // sent message's id, a form's errors) is a few dozen bytes: a brotli stream for it cost a
      // send about 0.4 ms of the server's CPU (decision 0084). Pages and data loads are GETs.
      (!length && c.req.method === "POST") ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(headers.get("Content-Type") ?? "") ||
      NO_TRANSFORM.test(headers.get("Cache-Control") ?? "")
    ) {
      return;
    }
    const vary = headers.get("Vary");
    const withVary = vary === "*" || (vary && VARY_ACCEPT_ENCODING.test(vary)) ? vary : vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
    const encoding = chooseEncoding(c.req.header("Accept-Encoding"));
    if (!encoding) {
      if (withVary !== vary) c.header("Vary", withVary);
      return;
    }
    const { status } = c.res;
    const compressed = await compressedBody(c.res, encoding, length);
    if (!compressed) return;
    const encoded = encodedHeaders(headers, encoding, withVary);
    if (Buffer.isBuffer(compressed)) encoded.set("Content-Length", String(compressed.byteLength));
    else encoded.delete("Content-Length");
    // Replaced outright: hono's setter would copy the old answer's headers (its length) onto it.
    c.res = undefined;
    c.res = new Response(compressed as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, { status, headers: encoded });
  };
}

/**
 * The answer's body compressed: bytes handed over whole (`wholeResponse`) as they are, in the
 * request's turn up to COMPRESS_NOW_MAX_BYTES; a body of known length up to
 * WHOLE_COMPRESSION_MAX_BYTES read and compressed in one call; any other as a stream, in pieces.
 * Null for an answer without a body.
 */
async function compressedBody(response: Response, encoding: Encoding, length: string | null): Promise<Buffer | ReadableStream<Uint8Array> | null> {
  // Read before `body`, whose getter makes the Response an undici one (@hono/node-server's).
  const handedOver = (response as WithWholeBody)[WHOLE_BODY];
  if (handedOver) return handedOver.byteLength <= COMPRESS_NOW_MAX_BYTES ? WHOLE_NOW[encoding](handedOver) : WHOLE[encoding](handedOver);
  const { body } = response;
  if (!body) return null;
  if (length && Number(length) <= WHOLE_COMPRESSION_MAX_BYTES) return WHOLE[encoding](Buffer.from(await response.arrayBuffer()));
  return body.pipeThrough(compressInPieces(encoding));
}

/**
 * The answer's headers, saying it is encoded and that it varies with Accept-Encoding; a strong
 * ETag becomes weak (the bytes differ). Set on a new answer rather than with `c.header`, which
 * would copy the old answer's body into a stream first.
 */
function encodedHeaders(original: Headers, encoding: Encoding, vary: string): Headers {
  const headers = new Headers(original);
  headers.set("Content-Encoding", encoding);
  headers.set("Vary", vary);
  const etag = headers.get("ETag");
  if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
  return headers;
}

/**
 * A compression stream (what CompressionStream is, with our levels) that gathers what is written
 * in one turn of the event loop, up to COMPRESSION_PIECE_BYTES, and compresses and flushes it as
 * one piece. Backpressure holds: a write waits while the compressor's input is full.
 */
export function compressInPieces(encoding: Encoding): ReadableWritablePair<Uint8Array, Uint8Array> {
  const compressor = COMPRESSORS[encoding]();
  let chunks: Uint8Array[] = [];
  let size = 0;
  let due: NodeJS.Immediate | undefined;
  const compressPiece = () => {
    if (due) clearImmediate(due);
    due = undefined;
    if (size === 0) return;
    const piece = Buffer.concat(chunks, size);
    chunks = [];
    size = 0;
    compressor.write(piece);
    compressor.flush(FLUSH[encoding]);
  };
  const writable = new WritableStream<Uint8Array>({
    async write(chunk) {
      // The reader went away (its side cancelled destroys the compressor): the pipe stops its source.
      if (compressor.destroyed) throw new Error("the compressed answer's reader went away");
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= COMPRESSION_PIECE_BYTES) compressPiece();
      else due ??= setImmediate(compressPiece);
      if (compressor.writableNeedDrain) await once(compressor, "drain");
    },
    close() {
      compressPiece();
      compressor.end();
    },
    abort(reason) {
      if (due) clearImmediate(due);
      compressor.destroy(reason instanceof Error ? reason : undefined);
    },
  });
  return { writable, readable: Readable.toWeb(compressor) as ReadableStream<Uint8Array> };
}
