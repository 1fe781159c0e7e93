#!/usr/bin/env node
/**
 * `npm run serve` (and the end of `npm start`): the server process on the project's node
 * (decision 0067) with node's options for it (server/node-options.json, decision 0064), signals
 * passed on, its exit code returned.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectNode } from "./project-node.mjs";

const root = path.resolve(import.meta.dirname, "..");
const nodeOptions = JSON.parse(readFileSync(path.join(root, "server/node-options.json"), "utf8"));
const server = spawn(projectNode(), [...nodeOptions, "--import", "tsx", "server/main.ts"], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
