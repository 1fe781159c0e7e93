/**
 * The node the project runs on: npm's `node` package, a dependency (decision 0067), linked at
 * node_modules/.bin/node. npm's scripts find it first on PATH; a script that the machine's own
 * node may have started (`npm start` on a fresh clone runs before the install) spawns it by path.
 */
import { existsSync } from "node:fs";
import path from "node:path";

const installed = path.resolve(import.meta.dirname, "../node_modules/.bin/node");

export const projectNode = existsSync(installed) ? installed : process.execPath;
