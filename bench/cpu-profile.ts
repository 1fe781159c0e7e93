/**
 * `npx tsx bench/cpu-profile.ts FILE.cpuprofile [--requests N] [--top N] [--folded OUT] [--svg OUT]`:
 * any `node --cpu-prof` profile as tables of self and inclusive time by package/file and by
 * function (per request when --requests is given), with its folded stacks and flame graph
 * (lib/cpu-profile.ts). `npm run bench:profile` does this for the signed-in pages, per load run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { breakdown, flameGraphSvg, foldedText, table, type CpuProfile } from "./lib/cpu-profile.ts";
import { projectRoot } from "./lib/server.ts";

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const file = argv.find((a) => a.endsWith(".cpuprofile"));
if (!file) throw new Error("usage: tsx bench/cpu-profile.ts FILE.cpuprofile [--requests N] [--top N] [--folded OUT] [--svg OUT]");
const b = breakdown(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, projectRoot);
const requests = Number(option("--requests") ?? 1);
const top = Number(option("--top") ?? 20);
console.log(`${b.samples} samples, ${b.busyMs.toFixed(0)} ms busy, ${b.idleMs.toFixed(0)} ms idle\n`);
console.log(table("package / file", b.groups, b.busyMs, requests, top) + "\n");
console.log(table("function", b.functions, b.busyMs, requests, top));
const folded = option("--folded");
if (folded) writeFileSync(folded, foldedText(b.folded));
const svg = option("--svg");
if (svg) writeFileSync(svg, flameGraphSvg(b.folded, file));
