/**
 * The node the project runs on: npm's `node` package, a dependency pinned in package.json
 * (decision 0067), linked at node_modules/.bin/node. npm's scripts find it first on PATH; a
 * script that the machine's own node may have started (`npm start` on a fresh clone) spawns it
 * by path. package.json's `engines` is the oldest node the server runs on (its strictest
 * runtime dependency's floor); server/runtime.ts refuses anything older.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

/** The pinned version of npm's `node` package ("22.23.3"). */
export const pinnedNode = manifest.dependencies.node;
/** The oldest version the server runs on (package.json's `engines.node`, ">=" dropped). */
export const nodeFloor = manifest.engines.node.replace(/^>=\s*/, "");
export const installedNode = path.join(root, "node_modules/.bin/node");

/** Whether `version` ("22.23.3" or "v22.23.3") is `floor` or newer. */
export function versionAtLeast(version, floor) {
  const parts = (text) => text.replace(/^v/, "").split(".").map(Number);
  const [have, need] = [parts(version), parts(floor)];
  for (let i = 0; i < need.length; i++) if ((have[i] ?? 0) !== need[i]) return (have[i] ?? 0) > need[i];
  return true;
}

/** The server's node: node_modules/.bin/node. Missing, it is an error, never the machine's node instead. */
export function projectNode() {
  if (!existsSync(installedNode)) {
    throw new Error(`Node.js ${pinnedNode}, which the project runs on, is not installed at node_modules/.bin/node: run npm start (or npm install).`);
  }
  return installedNode;
}
