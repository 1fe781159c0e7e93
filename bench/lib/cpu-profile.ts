/**
 * A V8 `.cpuprofile` (`node --cpu-prof`) reduced to what a reader needs: where the CPU went,
 * grouped by package or file (node_modules/react-dom, better-auth, drizzle-orm, pg, the app's
 * server build, our server/ files, node's internals), self time and inclusive time, over a
 * window of the profile (a load run's, so that start-up is not counted); the stacks in Brendan
 * Gregg's folded format; and a flame graph drawn from them as a standalone SVG.
 */
import path from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds, on the same monotonic clock as `process.hrtime` (Linux: CLOCK_MONOTONIC). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A window of the profile, in microseconds of the monotonic clock (process.hrtime.bigint() / 1000). */
export interface Window {
  fromUs: number;
  toUs: number;
}

export interface Row {
  name: string;
  selfMs: number;
  inclusiveMs: number;
}

export interface Breakdown {
  /** Sampled time in the window, idle excluded. */
  busyMs: number;
  idleMs: number;
  samples: number;
  groups: Row[];
  functions: Row[];
  /** Folded stacks: "frame;frame;frame" -> ms. */
  folded: Map<string, number>;
}

const SPECIAL = new Set(["(root)", "(program)", "(idle)", "(garbage collector)"]);

/** The package or file a frame belongs to: `react-dom`, `@scope/pkg`, `server/auth/session.ts`, `app (server build)`, `node:internal`. */
export function groupOf(frame: CallFrame, root: string): string {
  if (SPECIAL.has(frame.functionName) && !frame.url) return frame.functionName;
  const url = frame.url;
  if (!url) return "(native)";
  if (url.startsWith("node:")) return "node: internals";
  const file = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
  const modules = file.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const parts = file.slice(modules + "/node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const relative = path.relative(root, file);
  // The app's routes and components are bundled into the build's server/index.js.
  if (/^build[^/]*\/server\//.test(relative)) return "app (server build)";
  return relative.startsWith("..") ? file : relative;
}

function frameLabel(frame: CallFrame, root: string): string {
  const name = frame.functionName || "(anonymous)";
  if (!frame.url) return name;
  const group = groupOf(frame, root);
  const file = frame.url.startsWith("file://") ? path.basename(new URL(frame.url).pathname) : frame.url;
  // A package's frames name the package and the file; our own, the file's path.
  const where = group.endsWith(file) || group.startsWith("node:") ? (group.startsWith("node:") ? file : group) : `${group}/${file}`;
  return `${name} ${where}:${frame.lineNumber + 1}`;
}

/** The breakdown of the samples that fall in `window` (the whole profile without one). */
export function breakdown(profile: CpuProfile, root: string, window?: Window): Breakdown {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map<number, ProfileNode[]>();
  const stackOf = (id: number): ProfileNode[] => {
    let stack = stacks.get(id);
    if (!stack) {
      const p = parent.get(id);
      stack = [...(p === undefined ? [] : stackOf(p)), byId.get(id)!];
      stacks.set(id, stack);
    }
    return stack;
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const fnSelf = new Map<string, number>();
  const fnInclusive = new Map<string, number>();
  const folded = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let busyUs = 0;
  let idleUs = 0;
  let counted = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    if (window && (time < window.fromUs || time >= window.toUs)) continue;
    const stack = stackOf(profile.samples[i]!).filter((n) => n.callFrame.functionName !== "(root)");
    const leaf = stack.at(-1);
    if (!leaf) continue;
    counted += 1;
    if (leaf.callFrame.functionName === "(idle)") {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const groups = stack.map((n) => groupOf(n.callFrame, root));
    const labels = stack.map((n) => frameLabel(n.callFrame, root));
    add(self, groups.at(-1)!, us);
    add(fnSelf, labels.at(-1)!, us);
    for (const g of new Set(groups)) add(inclusive, g, us);
    for (const l of new Set(labels)) add(fnInclusive, l, us);
    add(folded, labels.map((l) => l.replaceAll(";", ",")).join(";"), us);
  }
  const rows = (s: Map<string, number>, inc: Map<string, number>): Row[] =>
    [...inc.keys()]
      .map((name) => ({ name, selfMs: (s.get(name) ?? 0) / 1000, inclusiveMs: (inc.get(name) ?? 0) / 1000 }))
      .sort((a, b) => b.selfMs - a.selfMs || b.inclusiveMs - a.inclusiveMs);
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    samples: counted,
    groups: rows(self, inclusive),
    functions: rows(fnSelf, fnInclusive),
    folded: new Map([...folded].map(([k, v]) => [k, v / 1000])),
  };
}

/** A markdown table of the top `n` rows by self time, in ms per request and % of busy time. */
export function table(title: string, rows: Row[], busyMs: number, requests: number, n = 15): string {
  const perRequest = (ms: number) => (requests > 0 ? (ms / requests).toFixed(2) : "-");
  const share = (ms: number) => `${((100 * ms) / busyMs).toFixed(1)}%`;
  const lines = [`| ${title} | self ms/req | self % | inclusive ms/req | inclusive % |`, "|---|---|---|---|---|"];
  for (const r of rows.slice(0, n)) {
    lines.push(`| ${r.name.replaceAll("|", "\\|")} | ${perRequest(r.selfMs)} | ${share(r.selfMs)} | ${perRequest(r.inclusiveMs)} | ${share(r.inclusiveMs)} |`);
  }
  return lines.join("\n");
}

/** Folded stacks, one "frame;frame;frame count" line each (count: whole microseconds), for flamegraph.pl or speedscope. */
export function foldedText(folded: Map<string, number>): string {
  return [...folded].map(([stack, ms]) => `${stack} ${Math.round(ms * 1000)}`).join("\n") + "\n";
}

interface Tree {
  name: string;
  ms: number;
  children: Map<string, Tree>;
}

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);

/** A flame graph (root at the bottom, width = time) as a standalone SVG; hover a box for its name and time. */
export function flameGraphSvg(folded: Map<string, number>, title: string, width = 1600): string {
  const root: Tree = { name: "all", ms: 0, children: new Map() };
  for (const [stack, ms] of folded) {
    root.ms += ms;
    let node = root;
    for (const frame of stack.split(";")) {
      let child = node.children.get(frame);
      if (!child) node.children.set(frame, (child = { name: frame, ms: 0, children: new Map() }));
      child.ms += ms;
      node = child;
    }
  }
  const depthOf = (t: Tree): number => 1 + Math.max(0, ...[...t.children.values()].map(depthOf));
  const rowHeight = 16;
  const height = (depthOf(root) + 2) * rowHeight;
  const scale = width / Math.max(root.ms, 1e-9);
  const boxes: string[] = [];
  const draw = (t: Tree, x: number, depth: number) => {
    const w = t.ms * scale;
    if (w < 0.3) return;
    const y = height - (depth + 1) * rowHeight;
    const hue = (t.name.split(" ")[1] ?? "").includes("node_modules") ? 40 : 10;
    const label = `${t.name} (${t.ms.toFixed(1)} ms, ${((100 * t.ms) / root.ms).toFixed(2)}%)`;
    const text = w > 30 ? `<text x="${(x + 3).toFixed(1)}" y="${y + 11}">${escapeXml(t.name.slice(0, Math.floor(w / 6.5)))}</text>` : "";
    boxes.push(
      `<g><title>${escapeXml(label)}</title><rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowHeight - 1}" fill="hsl(${hue + ((t.name.length * 7) % 30)},80%,${60 + (depth % 3) * 5}%)"/>${text}</g>`,
    );
    let cx = x;
    for (const c of [...t.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(c, cx, depth + 1);
      cx += c.ms * scale;
    }
  };
  draw(root, 0, 0);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="11">
<text x="4" y="12">${escapeXml(title)}</text>
${boxes.join("\n")}
</svg>
`;
}

/**
 * What a request's CPU went to, by the first rule its stack matches (in this order): V8's
 * collector, the page's gzip, socket writes, the session lookup, the database, React's render,
 * React Router, the metrics, Hono, async hooks; the rest is "other".
 */
const CATEGORIES: Array<[string, (frames: string[]) => boolean]> = [
  ["garbage collection", (f) => f.at(-1)!.startsWith("(garbage collector)")],
  ["gzip of the answer (hono compress, CompressionStream)", (f) => f.some((x) => /zlib|CompressionStream|compress\/index/.test(x))],
  ["socket writes", (f) => /^(writev|writeBuffer|writeUtf8String|writeLatin1String) /.test(`${f.at(-1)} `)],
  ["session: Better Auth's getSession (signed cookies, better-call)", (f) => f.some((x) => /better-auth|better-call|lookupSession/.test(x))],
  ["database: drizzle's query building and results, pg", (f) => f.some((x) => /drizzle-orm|pg-protocol|pg-pool| pg\//.test(x))],
  ["React's render (react-dom, the components)", (f) => f.some((x) => x.includes("react-dom"))],
  ["React Router (matching, loaders, turbo-stream)", (f) => f.some((x) => x.includes("react-router"))],
  ["metrics (prom-client, the route label)", (f) => f.some((x) => /prom-client|server\/metrics\.ts/.test(x))],
  ["hono: middleware, Request and Response", (f) => f.some((x) => x.includes("hono"))],
  ["async hooks (AsyncLocalStorage)", (f) => f.some((x) => x.includes("async_hooks"))],
];

/** The folded stacks' time by category (CATEGORIES), largest first. */
export function categories(folded: Map<string, number>): Array<{ name: string; ms: number }> {
  const totals = new Map<string, number>();
  for (const [stack, ms] of folded) {
    const frames = stack.split(";");
    const name = CATEGORIES.find(([, matches]) => matches(frames))?.[0] ?? "other";
    totals.set(name, (totals.get(name) ?? 0) + ms);
  }
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}
