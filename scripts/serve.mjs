#!/usr/bin/env node
/**
 * `npm run serve` (and the end of `npm start`): the server process with node's options for it
 * (server/node-options.json, decision 0064), signals passed on, its exit code returned.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const nodeOptions = JSON.parse(readFileSync(path.join(root, "server/node-options.json"), "utf8"));
const server = spawn(process.execPath, [...nodeOptions, "--import", "tsx", "server/main.ts"], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
