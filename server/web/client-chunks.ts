/**
 * How the client build is cut into files (vite.config.ts; docs/decisions/0060).
 */
import path from "node:path";
import type { ManualChunkMeta } from "rollup";

/** The modules every page loads: the client entry's and the root route's, wherever they are. */
const EVERY_PAGE = /(?:^|\/)(?:entry\.client\.[jt]sx?|app\/root\.tsx)$/;

/** The pages a first visit lands on, whose weight bench/first-visit.ts measures. */
const PUBLIC_PAGES = /\/app\/routes\/(?:home|browse-gigs|gig|digger|browse-diggers|contact|how-it-works|auth)\.tsx$/;

/**
 * Two chunks for what the client entry and the root route import, directly or not
 * (docs/decisions/0060). Each route is an entry of the client build, so Rollup gives a module
 * shared by some routes a file of its own: React Router, the header's icons, the button, `cn`,
 * 18 files on every page. Every page loads them all anyway, so two files cost no page a byte
 * more and save a request each, which is what a slow network pays for (Lighthouse's first paint
 * waits for every modulepreload of the page). Libraries (and Rollup's helpers, whose ids start
 * with \0) go apart from our code: no library imports ours, so neither chunk imports the other
 * back. The entries (the client entry, the root and every route) stay where they are: moved into
 * a chunk they would leave a file behind.
 *
 * A third chunk, `public`, holds what two or more of the public pages load and the shell does
 * not: the cards, badges, form fields, Radix's small pieces and the icons they share, 33 files of
 * 170-1,700 bytes each. A public page then asks for 6-11 files instead of 13-29, for at most
 * 6 KB it would not have loaded (decision 0060, amended; every page stays within 150 KB).
 */
export function shellChunks(): (id: string, meta: ManualChunkMeta) => string | undefined {
  // One build's answers (a module's place does not change within a build).
  const everyPage = new Map<string, boolean>();
  const reexportsByIndex = new Map<string, Map<string, string>>();
  let publicPagesOf: Map<string, number> | undefined;
  return (id, meta) => {
    if (EVERY_PAGE.test(id) || /\/app\/routes\//.test(id)) return undefined;
    if (loadedOnEveryPage(id, meta, { everyPage, reexportsByIndex })) return id.includes("/node_modules/") || id.startsWith("\0") ? "shell-libraries" : "shell";
    publicPagesOf ??= countPublicPages(meta, reexportsByIndex);
    return (publicPagesOf.get(id) ?? 0) >= 2 ? "public" : undefined;
  };
}

/**
 * How many of the public pages load each module (their route modules' static imports, followed
 * through indexes of re-exports only to what is taken from them).
 */
function countPublicPages(meta: ManualChunkMeta, reexportsByIndex: Map<string, Map<string, string>>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const root of meta.getModuleIds()) {
    if (!PUBLIC_PAGES.test(root)) continue;
    const reached = new Set<string>();
    const stack = [root];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      for (const imported of meta.getModuleInfo(id)?.importedIds ?? []) {
        const info = meta.getModuleInfo(imported);
        if (info?.isIncluded) stack.push(imported);
        else if (info) {
          const exports = reexports(imported, meta, reexportsByIndex);
          for (const name of namesImported(id, imported, meta)) {
            const source = exports.get(name);
            if (source) stack.push(source);
          }
        }
      }
    }
    for (const id of reached) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

interface Answers {
  everyPage: Map<string, boolean>;
  reexportsByIndex: Map<string, Map<string, string>>;
}

function loadedOnEveryPage(id: string, meta: ManualChunkMeta, answers: Answers, visiting = new Set<string>()): boolean {
  const { everyPage } = answers;
  const known = everyPage.get(id);
  if (known !== undefined) return known;
  if (EVERY_PAGE.test(id)) return true;
  const info = meta.getModuleInfo(id);
  if (!info?.isIncluded || visiting.has(id)) return false; // a cycle: the answer comes from another importer
  visiting.add(id);
  const answer = info.importers.some((importer) =>
    meta.getModuleInfo(importer)?.isIncluded
      ? loadedOnEveryPage(importer, meta, answers, visiting)
      : // An index that only re-exports (lucide-react's icons, radix-ui's primitives) is left out
        // of the build: it counts only where a page-wide module takes this module's export from it.
        takenThroughIndex(id, importer, meta, answers, visiting),
  );
  visiting.delete(id);
  // A "no" reached inside a cycle may be one only for want of the cycle's other path.
  if (answer || visiting.size === 0) everyPage.set(id, answer);
  return answer;
}

function takenThroughIndex(id: string, index: string, meta: ManualChunkMeta, answers: Answers, visiting: Set<string>): boolean {
  const exports = reexports(index, meta, answers.reexportsByIndex);
  return (meta.getModuleInfo(index)?.importers ?? []).some(
    (importer) =>
      namesImported(importer, index, meta).some((name) => exports.get(name) === id) && loadedOnEveryPage(importer, meta, answers, visiting),
  );
}

/** An index's exported names, each with the module it comes from. */
function reexports(index: string, meta: ManualChunkMeta, reexportsByIndex: Map<string, Map<string, string>>): Map<string, string> {
  let found = reexportsByIndex.get(index);
  if (found) return found;
  found = new Map();
  const info = meta.getModuleInfo(index);
  const code = info?.code ?? "";
  const moduleOf = (specifier: string) =>
    specifier.startsWith(".")
      ? path.resolve(path.dirname(index), specifier)
      : info?.importedIds.find((imported) => imported.includes(`/node_modules/${specifier}/`));
  // export { default as X, default as XIcon } from './icons/x.mjs'
  for (const [, names, specifier] of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const source = moduleOf(specifier!);
    if (source) for (const name of exportedNames(names!)) found.set(name, source);
  }
  // import * as Slot from "@radix-ui/react-slot"; ... export { Slot }
  for (const [, name, specifier] of code.matchAll(/import\s*\*\s*as\s+([\w$]+)\s+from\s*["']([^"']+)["']/g)) {
    const source = moduleOf(specifier!);
    if (source) found.set(name!, source);
  }
  // import { Link, useHref as h } from "./chunk-X.mjs"; ... export { Link, h as useHref } (React Router's index)
  const imported = new Map<string, string>();
  for (const [, names, specifier] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const source = moduleOf(specifier!);
    if (source) for (const local of exportedNames(names!)) imported.set(local, source);
  }
  for (const [, list] of code.matchAll(/export\s*\{([^}]*)\}(?!\s*from)/g)) {
    for (const part of list!.split(",")) {
      const [local, exported = local] = part.trim().split(/\s+as\s+/);
      const source = local && imported.get(local);
      if (source) found.set(exported!, source);
    }
  }
  reexportsByIndex.set(index, found);
  return found;
}

/** The names a module imports from an index (`import { A, B as C } from "lucide-react"`: A and B). */
function namesImported(importer: string, index: string, meta: ManualChunkMeta): string[] {
  const code = meta.getModuleInfo(importer)?.code ?? "";
  const names: string[] = [];
  for (const [, list, specifier] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    if (index.includes(`/node_modules/${specifier}/`)) names.push(...exportedNames(list!, "first"));
  }
  return names;
}

/** `default as X, Y` -> X, Y (an export list); `X as Y, type Z` -> X (an import list, with "first"). */
function exportedNames(list: string, side: "first" | "last" = "last"): string[] {
  return list
    .split(",")
    .map((part) => part.trim().split(/\s+as\s+/))
    .filter((parts) => parts[0] && !parts[0].startsWith("type "))
    .map((parts) => (side === "first" ? parts[0]! : parts.at(-1)!));
}
