import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { precompressAssets } from "../../server/web/precompressed-assets.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A client build's folder with these files. */
function clientBuild(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "dg-precompress-"));
  dirs.push(dir);
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), data);
  }
  return dir;
}

const script = `export const labels = [${Array.from({ length: 400 }, (_, i) => `"label ${i}"`).join(", ")}];\n`;
const style = `${Array.from({ length: 200 }, (_, i) => `.c${i} { margin: ${i}px; }`).join("\n")}\n`;

describe("assets compressed at build time (server/web/precompressed-assets.ts)", () => {
  it("writes a brotli and a gzip copy of each compressible asset that decompress to it", () => {
    const dir = clientBuild({ "assets/entry-abc.js": script, "assets/app-def.css": style, "assets/nested/icon.svg": `<svg>${"<g/>".repeat(300)}</svg>` });
    const written = precompressAssets(dir).map((file) => path.relative(dir, file)).sort();
    expect(written).toEqual(
      ["assets/app-def.css", "assets/entry-abc.js", "assets/nested/icon.svg"].flatMap((file) => [`${file}.br`, `${file}.gz`]),
    );
    for (const name of ["assets/entry-abc.js", "assets/app-def.css", "assets/nested/icon.svg"]) {
      const original = readFileSync(path.join(dir, name));
      const br = readFileSync(path.join(dir, `${name}.br`));
      const gz = readFileSync(path.join(dir, `${name}.gz`));
      expect(br.length).toBeLessThan(original.length / 4);
      expect(gz.length).toBeLessThan(original.length / 4);
      expect(brotliDecompressSync(br).equals(original)).toBe(true);
      expect(gunzipSync(gz).equals(original)).toBe(true);
    }
  });

  it("skips what compression does not make smaller, types already compressed, and files outside assets/", () => {
    const dir = clientBuild({
      "assets/tiny-abc.js": ";",
      "assets/random-abc.js": randomBytes(4096),
      "assets/photo-abc.png": Buffer.from(script),
      "assets/font-abc.woff2": Buffer.from(script),
      "offline.html": `<p>${"offline ".repeat(300)}</p>`,
    });
    expect(precompressAssets(dir)).toEqual([]);
    expect(existsSync(path.join(dir, "assets/tiny-abc.js.br"))).toBe(false);
    expect(existsSync(path.join(dir, "offline.html.gz"))).toBe(false);
  });

  it("makes no copies of copies when it runs again", () => {
    const dir = clientBuild({ "assets/entry-abc.js": script });
    const first = precompressAssets(dir);
    expect(precompressAssets(dir)).toEqual(first);
  });
});
