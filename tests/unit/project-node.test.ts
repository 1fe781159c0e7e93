/**
 * The node the project runs on (decision 0067): npm's `node` package, pinned in package.json.
 * npm's scripts find it first on PATH, so `npm test` itself runs on it; `npm start` serves on it
 * even when the machine's own, older node started the script before the install.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const pinned: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).dependencies.node;

describe("the project's node", () => {
  it("is pinned to one version, and these tests run on it", () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(process.versions.node).toBe(pinned);
  });

  it("is installed at node_modules/.bin/node, where the start script finds it", () => {
    expect(execFileSync(path.join(root, "node_modules/.bin/node"), ["--version"]).toString().trim()).toBe(`v${pinned}`);
    const found = execFileSync(process.execPath, ["--input-type=module", "-e", 'import { projectNode } from "./scripts/project-node.mjs"; process.stdout.write(projectNode)'], { cwd: root });
    expect(found.toString()).toBe(path.join(root, "node_modules/.bin/node"));
  });

  it("is what `npm start` and `npm run serve` start the server on, whichever node ran them", () => {
    const serve = readFileSync(path.join(root, "scripts/serve.mjs"), "utf8");
    expect(serve).toContain('from "./project-node.mjs"');
    expect(serve).toMatch(/spawn\(projectNode, /);
  });
});
