/**
 * `npx tsx bench/alloc-profile.ts`: what a signed-in request allocates, and what of it outlives
 * the young generation, by allocation site (issue 52). Starts the built server in production
 * mode with the inspector on, loads each signed-in page (lib/signed-in.ts) at 10 connections,
 * and for `--duration` seconds samples its allocations through the inspector's sampling heap
 * profiler twice: once counting every object (what a request allocates), once leaving out what a
 * scavenge collected (what was promoted to the old space, or still alive at the end: the
 * objects that make scavenges slow and old-space collections come). Prints KB a request by the
 * allocating function and by its callers. The inspector slows the server: compare only runs of
 * this script with each other.
 *
 *   npx tsx bench/alloc-profile.ts --only notifications --duration 5
 *
 * Options: --gigs N (default 100000), --duration S (default 5), --only NAME[,NAME], --depth N
 * (callers shown, default 4), --top N (rows, default 15). Needs PostgreSQL, as the signed-in case.
 */
import pg from "pg";
import { benchDatabaseUrl, DEFAULT_PG_SERVER, generate } from "./generate.ts";
import { canPin, onLoadCores, SERVER_CPUS } from "./lib/cpu.ts";
import { freePort } from "../tests/support/ports.ts";
import { load, warm } from "./lib/load.ts";
import { startServer } from "./lib/server.ts";
import { check, refreshCookies, signedInPages } from "./lib/signed-in.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const gigCount = Number(option("--gigs", "100000"));
const duration = Number(option("--duration", "5"));
const depth = Number(option("--depth", "4"));
const top = Number(option("--top", "15"));
const only = argv.includes("--only") ? option("--only", "").split(",").filter(Boolean) : null;
const buildDir = process.env.BUILD_DIR ?? "build-bench";
const pin = canPin();

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: ProfileNode[];
}
interface SamplingProfile {
  head: ProfileNode;
  samples: Array<{ size: number; nodeId: number }>;
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id === undefined) return;
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  return {
    send: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        id += 1;
        pending.set(id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

const frame = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(app|server|build-bench|core)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;

/** KB a request by allocating function, and by it with its `depth` nearest callers. */
function report(profile: SamplingProfile, requests: number): string[] {
  const nodes = new Map<number, { node: ProfileNode; parent: ProfileNode | null }>();
  const index = (node: ProfileNode, parent: ProfileNode | null) => {
    nodes.set(node.id, { node, parent });
    for (const child of node.children) index(child, node);
  };
  index(profile.head, null);
  const bySite = new Map<string, number>();
  const byStack = new Map<string, number>();
  let total = 0;
  for (const sample of profile.samples) {
    const entry = nodes.get(sample.nodeId);
    if (!entry) continue;
    total += sample.size;
    const site = frame(entry.node);
    bySite.set(site, (bySite.get(site) ?? 0) + sample.size);
    const stack: string[] = [];
    for (let at: { node: ProfileNode; parent: ProfileNode | null } | undefined = entry; at && stack.length <= depth; at = at.parent ? nodes.get(at.parent.id) : undefined) stack.push(frame(at.node));
    const key = stack.join(" < ");
    byStack.set(key, (byStack.get(key) ?? 0) + sample.size);
  }
  const kb = (bytes: number) => (bytes / requests / 1024).toFixed(1).padStart(7);
  const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${kb(v)} KB  ${k}`);
  return [`${kb(total)} KB a request in all (${requests} requests)`, "  by allocating function:", ...rows(bySite).map((r) => `    ${r}`), "  with its callers:", ...rows(byStack).map((r) => `    ${r}`)];
}

const databaseUrl = process.env.DATABASE_URL ?? (await benchDatabaseUrl(process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER, gigCount));
await generate({ kind: "postgres", location: databaseUrl }, gigCount);
const inspectorPort = await freePort();
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const server = await startServer({ kind: "postgres", url: databaseUrl }, buildDir, {}, pin ? SERVER_CPUS : undefined, "server/main.ts", {
  nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`],
});
try {
  const devtools = await inspector(inspectorPort);
  await devtools.send("HeapProfiler.enable");
  const pages = (await signedInPages(server, client, { what: "Browse Gigs", texts: [] })).filter((page) => !only || only.some((name) => page.name.includes(name)));
  for (const page of pages) {
    await check(server, page.path, page.person.cookie, page.check);
    await warm(server.url, page.path, 20, { cookie: page.person.cookie });
    await refreshCookies(server, page.person);
    await onLoadCores(pin, () => load(server.url, page.path, 10, 3, { cookie: page.person.cookie }));
    for (const [what, minorToo] of [
      ["allocated", true],
      ["outlived the young generation", false],
    ] as const) {
      await devtools.send("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: minorToo });
      const run = await onLoadCores(pin, () => load(server.url, page.path, 10, duration, { cookie: page.person.cookie }));
      const { profile } = await devtools.send<{ profile: SamplingProfile }>("HeapProfiler.stopSampling");
      console.log(`\n${page.name} (${page.path}): ${what}`);
      for (const line of report(profile, run.requests)) console.log(line);
    }
  }
  devtools.close();
} finally {
  await client.end();
  await server.stop();
}
