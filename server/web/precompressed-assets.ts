/**
 * The client build's assets compressed once, at build time (React Router's `buildEnd`,
 * react-router.config.ts): `FILE.br` (brotli at its highest quality) and `FILE.gz` (gzip
 * level 9) beside each file of `assets/` whose type is compressible, each kept only when
 * smaller than the file. The server sends them as they are (`serveStatic` with `precompressed`,
 * server/app.ts); an asset without one is compressed as it is sent (compression.ts).
 * docs/decisions/0058-precompressed-assets-and-level-2-gzip.md.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { getMimeType } from "hono/utils/mime";

/** The client build's folder of hashed assets, the only one precompressed. */
const ASSETS_DIR = "assets";

/** The encodings written, by the suffix `serveStatic` looks for. */
const ENCODERS: Array<[suffix: ".br" | ".gz", encode: (data: Buffer) => Buffer]> = [
  [
    ".br",
    (data) =>
      zlib.brotliCompressSync(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
  ],
  [".gz", (data) => zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION })],
];

/** The suffixes of the copies written. */
export const PRECOMPRESSED_SUFFIXES = ENCODERS.map(([suffix]) => suffix);

/** A file the server would compress: its type, by its name, as `serveStatic` reads it. */
const compressible = (name: string) => COMPRESSIBLE_CONTENT_TYPE_REGEX.test(getMimeType(name) ?? "");

/** Every file under `dir` (absolute paths). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : entry.isFile() ? [file] : [];
  });
}

/**
 * Writes the compressed copies beside each compressible file under `clientDir`'s assets/, and
 * returns the paths written. Copies of copies are never made (`.br` and `.gz` are not
 * compressible types), so running it twice writes the same files.
 */
export function precompressAssets(clientDir: string): string[] {
  const written: string[] = [];
  for (const file of filesUnder(path.join(clientDir, ASSETS_DIR))) {
    if (!compressible(file)) continue;
    const data = readFileSync(file);
    for (const [suffix, encode] of ENCODERS) {
      const encoded = encode(data);
      if (encoded.length >= data.length) continue;
      writeFileSync(file + suffix, encoded);
      written.push(file + suffix);
    }
  }
  return written;
}
