/**
 * The first module of every server entry (main.ts, cluster.ts): on a node older than
 * package.json's `engines` (the floor of the strictest runtime dependency: mailauth 7 asks for
 * 22.19, pg-boss 12 for 22.12) the server stops with one line saying how to get the right one,
 * before any dependency loads. `npm start` runs it on the project's node (decision 0067).
 */
import { readFileSync } from "node:fs";

const floor: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node.replace(/^>=\s*/, "");

/** Whether `version` ("22.23.3") is `floor` or newer. */
export function runsOn(version: string, atLeast: string): boolean {
  const [have, need] = [version, atLeast].map((text) => text.replace(/^v/, "").split(".").map(Number)) as [number[], number[]];
  const differs = need.findIndex((part, i) => (have[i] ?? 0) !== part);
  return differs === -1 || (have[differs] ?? 0) > (need[differs] ?? 0);
}

if (!runsOn(process.versions.node, floor)) {
  console.error(`Digs & Gigs needs Node.js ${floor} or newer, not ${process.version}: start it with npm start, which installs and uses the project's own Node.js (node_modules/.bin/node).`);
  process.exit(1);
}
