/**
 * `npx tsx bench/large-objects.ts`: what a page costs when something it builds crosses V8's
 * 128 KB line for an ordinary heap object (decision 0089). Past it, an object is allocated in
 * the large-object space, a fresh memory mapping faulted in page by page, on this machine dearly.
 * Run in fresh processes on React's production build, two cases:
 *
 * - **the page's string**: a list page of N cards (about 2 KB each) rendered and written as UTF-8,
 *   one-byte (ASCII) and two-byte (one en dash in it), whole (`renderToString`, then `encodeInto`
 *   flattens it) and in segments (`renderToStringSegments`, our patch, what the server does);
 * - **React's array of pieces**: the same page, its cards in one boundary (the whole page) or
 *   each in a boundary of its own (`RenderSegment`).
 *
 * Prints µs a page and minor page faults a page (`process.resourceUsage`), medians of `--rounds`.
 *
 *   npx tsx bench/large-objects.ts --cards 20,50,80 --rounds 3 --ms 1500
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};

interface Variant {
  text: "one-byte" | "two-byte";
  output: "whole" | "segments";
  boundaries: "page" | "card";
}

const CHILD = "--child";

if (argv[0] === CHILD) {
  const [, cardsText, variantJson, ms] = argv;
  const variant = JSON.parse(variantJson!) as Variant;
  const { createElement: h, Suspense } = await import("react");
  const { renderToString, renderToStringSegments } = await import("react-dom/server");
  const { pageBytes, SEGMENT_LENGTH } = await import("../app/render-page.server.ts");
  const dash = variant.text === "two-byte" ? "\u2013" : "-";
  const card = (i: number) =>
    h(
      "div",
      { "data-slot": "card", className: "card gap-4", "data-lead-state": "active" },
      h("h2", { className: "card-title text-lg" }, `Hiring for portrait photography for a dental office ${i}`),
      h("p", { className: "flex items-start gap-2 text-sm font-medium" }, i === 0 ? `Visit booked: Sat, Dec 12, 5:00 ${dash} 6:00 AM UTC` : "No visit booked"),
      ...Array.from({ length: 10 }, (_, k) =>
        h("div", { key: k, className: "grid gap-1" }, h("dt", { className: "text-muted-foreground" }, "Budget"), h("dd", { className: "font-medium break-words" }, `From $${k},000`)),
      ),
      h("a", { href: `mailto:c${i}@bench.example?subject=Regarding%20your%20gig`, "data-slot": "button", className: "button button-default button-size-default" }, "Send Email"),
    );
  const page = h(
    "html",
    null,
    h(
      "body",
      null,
      h(
        "ul",
        null,
        Array.from({ length: Number(cardsText) }, (_, i) => h("li", { key: i }, variant.boundaries === "card" ? h(Suspense, null, card(i)) : card(i))),
      ),
    ),
  );
  // The server's own writing of a page: the whole string as one segment (as before decision 0089), or the segments.
  const once = (): number => pageBytes(variant.output === "whole" ? [renderToString(page)] : renderToStringSegments(page, SEGMENT_LENGTH).segments).length;
  const bytes = once();
  for (let i = 0; i < 200; i++) once();
  const faults = process.resourceUsage().minorPageFault;
  const started = performance.now();
  let pages = 0;
  while (performance.now() - started < Number(ms)) {
    once();
    pages++;
  }
  const us = ((performance.now() - started) * 1000) / pages;
  console.log(JSON.stringify({ us, faults: (process.resourceUsage().minorPageFault - faults) / pages, bytes }));
  process.exit(0);
}

const cardCounts = option("--cards", "20,50,80").split(",").map(Number);
const rounds = Number(option("--rounds", "3"));
const ms = option("--ms", "1500");
const variants: Variant[] = [
  { text: "one-byte", output: "whole", boundaries: "page" },
  { text: "two-byte", output: "whole", boundaries: "page" },
  { text: "two-byte", output: "segments", boundaries: "page" },
  { text: "two-byte", output: "segments", boundaries: "card" },
  { text: "one-byte", output: "segments", boundaries: "card" },
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const self = fileURLToPath(import.meta.url);

console.log("| cards | page | text | output | boundaries | µs a page (median) | page faults a page |");
console.log("|---|---|---|---|---|---|---|");
for (const cards of cardCounts) {
  const results = new Map<Variant, Array<{ us: number; faults: number; bytes: number }>>(variants.map((v) => [v, []]));
  // Rounds take the variants in turn, each in a fresh process.
  for (let round = 0; round < rounds; round++) {
    for (const variant of variants) {
      const out = execFileSync(process.execPath, ["--import", "tsx", self, CHILD, String(cards), JSON.stringify(variant), ms], {
        env: { ...process.env, NODE_ENV: "production" },
        encoding: "utf8",
      });
      results.get(variant)!.push(JSON.parse(out.trim().split("\n").at(-1)!) as { us: number; faults: number; bytes: number });
    }
  }
  for (const variant of variants) {
    const runs = results.get(variant)!;
    const kb = (runs[0]!.bytes / 1024).toFixed(0);
    console.log(`| ${cards} | ${kb} KB | ${variant.text} | ${variant.output} | ${variant.boundaries} | ${median(runs.map((r) => r.us)).toFixed(0)} | ${median(runs.map((r) => r.faults)).toFixed(0)} |`);
  }
}
