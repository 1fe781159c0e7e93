/**
 * `npx tsx bench/render-loop.ts --before DIR`: the render of the signed-in pages' own route
 * components (not the document around them, not the request), in a loop, from loader data a
 * server of this checkout gave for the bench's people (lib/signed-in.ts) on the bench database,
 * in this checkout and in another one (DIR, as bench:ab's `--before`), taking turns in fresh
 * processes round by round. A render in a loop is the least noisy figure this machine gives:
 * for a change to what a page's cards render, where bench:ab's CPU per request moves by less
 * than its noise. Prints each page's median µs a render on both sides and each round's ratio.
 *
 *   npx tsx bench/render-loop.ts --before /tmp/before --rounds 5 --ms 2000 --only "my leads"
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { benchDatabaseUrl, DEFAULT_PG_SERVER, generate } from "./generate.ts";
import { projectRoot, startServer } from "./lib/server.ts";
import { refreshCookies, signedInPages } from "./lib/signed-in.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const beforeRoot = path.resolve(option("--before") ?? projectRoot);
const rounds = Number(option("--rounds", "5"));
const ms = option("--ms", "2000")!;
const gigCount = Number(option("--gigs", "100000"));
const only = option("--only");
const buildDir = path.resolve(projectRoot, process.env.BUILD_DIR ?? "build-bench");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The signed-in pages' route modules and ids (app/routes.ts names them after their files). */
const ROUTES: Record<string, string> = { "/browse-gigs": "browse-gigs", "/my-gigs": "my-gigs", "/my-leads": "my-leads", "/notifications": "notifications" };

const databaseUrl = process.env.DATABASE_URL ?? (await benchDatabaseUrl(process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER, gigCount));
await generate({ kind: "postgres", location: databaseUrl }, gigCount);
const dataDir = mkdtempSync(path.join(tmpdir(), "dg-render-loop-"));
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const server = await startServer({ kind: "postgres", url: databaseUrl }, buildDir);
const pages: Array<{ name: string; path: string; file: string; dataFile: string }> = [];
try {
  for (const page of await signedInPages(server, client, { what: "Browse Gigs", texts: [] })) {
    const file = ROUTES[page.path];
    if (!file || (only && !page.name.includes(only))) continue;
    await refreshCookies(server, page.person);
    // The route's data as the browser gets it on a client navigation (its `.data` request).
    const response = await fetch(`${server.url}${page.path}.data`, { headers: { cookie: page.person.cookie } });
    if (!response.ok || !response.body) throw new Error(`render-loop: ${page.path}.data answered ${response.status}`);
    const decoded = await decodeViaTurboStream(response.body, globalThis);
    await decoded.done;
    const data = (decoded.value as Record<string, { data?: unknown }>)[`routes/${file}`]?.data;
    if (data === undefined) throw new Error(`render-loop: no data for routes/${file} in ${page.path}.data`);
    const dataFile = path.join(dataDir, `${file}.json`);
    writeFileSync(dataFile, JSON.stringify(data));
    pages.push({ name: page.name, path: page.path, file, dataFile });
  }
} finally {
  await server.stop();
  await client.end();
}

const child = path.join(projectRoot, "bench/lib/render-child.tsx");
function render(root: string, page: (typeof pages)[number]): { us: number; bytes: number } {
  const out = execFileSync(process.execPath, ["--import", "tsx", child, `app/routes/${page.file}.tsx`, `routes/${page.file}`, page.path, page.dataFile, ms], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as { us: number; bytes: number };
}

console.log(`render-loop: ${beforeRoot} (before) and ${projectRoot} (after), ${rounds} rounds of ${ms} ms a page and side`);
console.log("\n| Page | before: µs a render (median) | after | each round's after / before: median (min-max) | HTML bytes before, after |\n|---|---|---|---|---|");
for (const page of pages) {
  const sides = { before: [] as number[], after: [] as number[] };
  let bytes = { before: 0, after: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 ? (["after", "before"] as const) : (["before", "after"] as const)) {
      const result = render(side === "before" ? beforeRoot : projectRoot, page);
      sides[side].push(result.us);
      bytes = { ...bytes, [side]: result.bytes };
    }
  }
  const paired = sides.after.map((us, round) => us / sides.before[round]!);
  console.log(
    `| ${page.path} | ${Math.round(median(sides.before))} | ${Math.round(median(sides.after))} | ${median(paired).toFixed(2)} (${Math.min(...paired).toFixed(2)}-${Math.max(...paired).toFixed(2)}) | ${bytes.before}, ${bytes.after} |`,
  );
}
rmSync(dataDir, { recursive: true, force: true });
