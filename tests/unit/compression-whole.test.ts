/**
 * server/web/compression.ts `wholeResponse` (decision 0087): a page rendered whole hands its
 * bytes to the compression middleware with its Response, which compresses them as they are,
 * in every encoding, without reading the Response's body; an answer that was not handed over
 * is still read and compressed.
 */
import zlib from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { compression, wholeResponse } from "../../server/web/compression.ts";

const decompress: Record<string, (bytes: Buffer) => Buffer> = {
  br: (bytes) => zlib.brotliDecompressSync(bytes),
  gzip: (bytes) => zlib.gunzipSync(bytes),
  deflate: (bytes) => zlib.inflateSync(bytes),
};

/** A page of `bytes`, with a character outside Latin-1 (its UTF-8 length is not its string length). */
const page = (bytes: number) => Buffer.from(`<!DOCTYPE html><p>3:00 – 5:00 PM</p>${"<li class=\"card\">a gig</li>".repeat(bytes / 26)}`);

function appAnswering(answer: () => Response) {
  const app = new Hono();
  app.use(compression());
  app.get("/", () => answer());
  return app;
}

describe("a page handed over whole", () => {
  it("is compressed from its bytes in each encoding, with the compressed length, and its body is never read", async () => {
    for (const encoding of ["br", "gzip", "deflate"]) {
      for (const size of [4_000, 300_000]) {
        const bytes = page(size);
        let handed: Response | undefined;
        const app = appAnswering(() => (handed = wholeResponse(bytes, { status: 200, headers: new Headers({ "Content-Type": "text/html" }) })));
        const response = await app.request("/", { headers: { "Accept-Encoding": encoding } });
        const body = Buffer.from(await response.arrayBuffer());
        expect(response.headers.get("Content-Encoding"), `${encoding} ${size}`).toBe(encoding);
        expect(response.headers.get("Content-Length")).toBe(String(body.byteLength));
        expect(decompress[encoding]!(body).equals(bytes)).toBe(true);
        // Read from where it was handed over: the Response's own stream was never opened.
        expect(handed!.bodyUsed).toBe(false);
      }
    }
  });

  it("goes as it is, with its length, to a client that takes no encoding", async () => {
    const bytes = page(4_000);
    const response = await appAnswering(() => wholeResponse(bytes, { status: 200, headers: new Headers({ "Content-Type": "text/html" }) })).request("/");
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(response.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("an answer not handed over, with its length, is read and compressed whole", async () => {
    const bytes = page(4_000);
    let plain: Response | undefined;
    const app = appAnswering(() => (plain = new Response(bytes, { headers: { "Content-Type": "text/html", "Content-Length": String(bytes.byteLength) } })));
    const response = await app.request("/", { headers: { "Accept-Encoding": "br" } });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("Content-Length")).toBe(String(body.byteLength));
    expect(decompress.br!(body).equals(bytes)).toBe(true);
    expect(plain!.bodyUsed).toBe(true);
  });
});
