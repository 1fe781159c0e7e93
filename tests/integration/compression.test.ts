/**
 * Compression (docs/decisions/0058-precompressed-assets-and-level-2-gzip.md): the built assets'
 * brotli and gzip copies written at build time (server/web/precompressed-assets.ts) sent as
 * the browser accepts them, and pages compressed as they are sent by server/web/compression.ts
 * under hono compress's rules: the encoding by Accept-Encoding and its q-values, nothing under
 * 1 KB, nothing for HEAD nor for an answer of unknown length to a POST (decision 0084). An
 * answer of unknown length is compressed in pieces
 * (tests/unit/compress-in-pieces.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

const clientDir = path.resolve(import.meta.dirname, "../..", process.env.BUILD_DIR ?? "build", "client");

let app: TestApp;
/** The largest script the home page loads, and its bytes in the build. */
let script: string;
let scriptBytes: Buffer;
beforeAll(async () => {
  app = await createTestApp();
  const html = await (await app.request("/")).text();
  const scripts = [...new Set(html.match(/\/assets\/[^"]+\.js/g))];
  const sizes = scripts.map((url) => ({ url, bytes: readFileSync(path.join(clientDir, url)) }));
  const largest = sizes.sort((a, b) => b.bytes.length - a.bytes.length)[0]!;
  script = largest.url;
  scriptBytes = largest.bytes;
});
afterAll(() => app.close());

const get = (url: string, acceptEncoding?: string, method = "GET") =>
  app.request(url, { method, headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } });
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe("built assets, compressed at build time", () => {
  it("sends the brotli copy to a browser that takes brotli, the same bytes once decompressed", async () => {
    expect(scriptBytes.length).toBeGreaterThan(10_000);
    const response = await get(script, "gzip, deflate, br, zstd");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(response.headers.get("cache-control")).toContain("immutable");
    const body = await bytesOf(response);
    expect(Number(response.headers.get("content-length"))).toBe(body.length);
    expect(body.length).toBeLessThan(scriptBytes.length / 2);
    expect(brotliDecompressSync(body).equals(scriptBytes)).toBe(true);
  });

  it("sends the gzip copy to a browser that takes gzip only", async () => {
    const response = await get(script, "gzip");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(gunzipSync(await bytesOf(response)).equals(scriptBytes)).toBe(true);
  });

  it("sends the file as it is to a client that names no encoding", async () => {
    const response = await get(script);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect((await bytesOf(response)).equals(scriptBytes)).toBe(true);
  });

  it("compresses an encoding that has no copy on disk (deflate) when it is sent, whole: its length is known", async () => {
    const response = await get(script, "deflate");
    expect(response.headers.get("content-encoding")).toBe("deflate");
    const body = await bytesOf(response);
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(inflateSync(body).equals(scriptBytes)).toBe(true);
  });

  it("does not serve the copies as files of their own at the top of the site", async () => {
    expect((await get(`/${path.posix.basename(script)}.br`, "br")).status).toBe(404);
  });
});

describe("pages, compressed as they are sent", () => {
  it("brotli for a browser that takes it (Chromium's header), decompressing to the page", async () => {
    const response = await get("/browse-gigs", "gzip, deflate, br, zstd");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
    const html = brotliDecompressSync(await bytesOf(response)).toString();
    expect(html).toContain("Browse Gigs");
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });

  it("a page, rendered whole (decision 0065), is compressed whole: its compressed length is sent, and it is the bytes of one call", async () => {
    const response = await get("/browse-gigs", "gzip, deflate, br, zstd");
    const body = await bytesOf(response);
    expect(response.headers.get("content-length")).toBe(String(body.length));
    const html = brotliDecompressSync(body);
    expect(html.length).toBeGreaterThan(12_000);
    expect(body.equals(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }))).toBe(true);
  });

  it("gzip for a client that takes it and not brotli, decompressing to the page", async () => {
    const response = await get("/browse-gigs", "gzip, deflate");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
    const html = gunzipSync(await bytesOf(response)).toString();
    expect(html).toContain("Browse Gigs");
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });

  it("deflate when it is the only one taken, or the only one above q=0", async () => {
    for (const accept of ["deflate", "gzip;q=0, deflate"]) {
      const response = await get("/browse-gigs", accept);
      expect(response.headers.get("content-encoding"), accept).toBe("deflate");
      expect(inflateSync(await bytesOf(response)).toString()).toContain("Browse Gigs");
    }
  });

  it("the higher q-value wins", async () => {
    expect((await get("/browse-gigs", "gzip;q=0.5, deflate;q=0.8")).headers.get("content-encoding")).toBe("deflate");
    expect((await get("/browse-gigs", "*;q=0.3, br;q=0, gzip;q=0")).headers.get("content-encoding")).toBe("deflate");
    expect((await get("/browse-gigs", "br;q=0.2, gzip")).headers.get("content-encoding")).toBe("gzip");
  });

  it("nothing when no encoding we make is taken", async () => {
    for (const accept of ["identity", "gzip;q=0", "zstd", ""]) {
      const response = await get("/browse-gigs", accept);
      expect(response.headers.get("content-encoding"), accept).toBeNull();
      expect(await response.text()).toContain("Browse Gigs");
    }
  });

  it("nothing for an answer under 1 KB", async () => {
    const response = await get("/favicon.svg", "gzip");
    expect(Number(response.headers.get("content-length"))).toBeLessThan(1024);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toContain("<svg");
  });

  it("nothing for a form's answer streamed to a POST (an action's `.data`: a few dozen bytes)", async () => {
    const form = new URLSearchParams({ name: "", email: "not an address", message: "" });
    const posted = await app.request("/contact.data", {
      method: "POST",
      headers: { "accept-encoding": "gzip, deflate, br, zstd", "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl },
      body: form,
    });
    expect(posted.headers.get("content-length")).toBeNull();
    expect(posted.headers.get("content-encoding")).toBeNull();
    expect(await posted.text()).toMatch(/^\[/);
  });

  it("nothing for HEAD", async () => {
    // Hono answers HEAD with the GET route's response, its body dropped at the end: the
    // middleware sees /healthz's body, which GET sends compressed.
    expect((await get("/healthz", "gzip")).headers.get("content-encoding")).toBe("gzip");
    for (const url of ["/healthz", "/browse-gigs"]) {
      const response = await get(url, "gzip", "HEAD");
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-encoding"), url).toBeNull();
    }
  });
});
