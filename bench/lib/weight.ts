/**
 * Page weight: the JavaScript and CSS a first visit to a page downloads, read from the
 * server-rendered HTML (module scripts, their static imports, modulepreload and stylesheet
 * links, and the client entry's dynamic imports), each file gzip-compressed as a server or CDN
 * would send it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export interface PageWeight {
  path: string;
  htmlBytes: number;
  htmlGzipBytes: number;
  js: { files: number; bytes: number; gzipBytes: number };
  css: { files: number; bytes: number; gzipBytes: number };
  largestJs: Array<{ file: string; gzipBytes: number }>;
}

/** Every same-origin /assets/ file the HTML names, directly or by import. */
function assetsOf(html: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /<script[^>]*\bsrc="([^"]+)"/g,
    /<link[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*\bhref="([^"]+)"/g,
    /<link[^>]*\bhref="([^"]+)"[^>]*\brel="(?:modulepreload|stylesheet)"/g,
    /\bimport\s*(?:[^"';]*?from\s*)?["']([^"']+\.js)["']/g,
    /\bimport\(["']([^"']+\.js)["']\)/g,
  ];
  for (const pattern of patterns) for (const match of html.matchAll(pattern)) if (match[1]!.startsWith("/assets/")) found.add(match[1]!);
  return [...found];
}

/** The assets, with the static imports of the JavaScript ones followed (what the browser must fetch). */
function closure(initial: string[], clientDir: string): string[] {
  const seen = new Set<string>();
  const queue = [...initial];
  while (queue.length > 0) {
    const asset = queue.pop()!;
    if (seen.has(asset)) continue;
    seen.add(asset);
    if (!asset.endsWith(".js")) continue;
    const source = readFileSync(path.join(clientDir, asset), "utf8");
    for (const match of source.matchAll(/(?:^|[;\s])import\s*(?:[\w*{}\s,$]*?from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(asset), match[1]!));
    }
    // The client entry's dynamic imports are every visit's too: it fetches hydration's libraries
    // once the page has painted (app/entry.client.tsx, decision 0080).
    if (path.posix.basename(asset).startsWith("entry.client-"))
      for (const match of source.matchAll(/\bimport\(["'](\.{1,2}\/[^"']+\.js)["']\)/g)) queue.push(path.posix.join(path.posix.dirname(asset), match[1]!));
  }
  return [...seen];
}

export async function pageWeight(baseUrl: string, pagePath: string, clientDir: string): Promise<PageWeight> {
  const html = await (await fetch(baseUrl + pagePath, { headers: { accept: "text/html" } })).text();
  const files = closure(assetsOf(html), clientDir);
  const sum = (ext: string) => {
    const chosen = files.filter((f) => f.endsWith(ext));
    const sizes = chosen.map((file) => {
      const data = readFileSync(path.join(clientDir, file));
      return { file, bytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length };
    });
    return { sizes, total: { files: chosen.length, bytes: sizes.reduce((a, s) => a + s.bytes, 0), gzipBytes: sizes.reduce((a, s) => a + s.gzipBytes, 0) } };
  };
  const js = sum(".js");
  const css = sum(".css");
  return {
    path: pagePath,
    htmlBytes: Buffer.byteLength(html),
    htmlGzipBytes: gzipSync(html, { level: 9 }).length,
    js: js.total,
    css: css.total,
    largestJs: js.sizes.sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 5).map(({ file, gzipBytes }) => ({ file, gzipBytes })),
  };
}
