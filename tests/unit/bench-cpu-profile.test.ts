/** The bench's reading of a `.cpuprofile` (bench/lib/cpu-profile.ts) and of a response's cookies (bench/lib/signed-in.ts). */
import { describe, expect, it } from "vitest";
import { breakdown, categories, flameGraphSvg, foldedText, groupOf, type CpuProfile } from "../../bench/lib/cpu-profile.ts";
import { withSetCookies } from "../../bench/lib/signed-in.ts";

const root = "/work/app";
const frame = (functionName: string, url = "", lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });

/** (root) -> handler (server/app.ts) -> render (react-dom) ; plus (idle) and (garbage collector). */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 4, 5] },
    { id: 2, callFrame: frame("handler", `file://${root}/server/app.ts`, 9), children: [3] },
    { id: 3, callFrame: frame("render", "file:///elsewhere/node_modules/react-dom/server.js") },
    { id: 4, callFrame: frame("(idle)") },
    { id: 5, callFrame: frame("(garbage collector)") },
  ],
  startTime: 1_000,
  endTime: 2_000,
  // Each sample stands for the time to the next: handler 100, render 300, idle 400, gc 200 µs.
  samples: [2, 3, 4, 5, 2],
  timeDeltas: [0, 100, 300, 400, 200],
};

describe("cpu profile breakdown", () => {
  it("groups frames by package, by our own file, and keeps V8's own entries", () => {
    expect(groupOf(frame("x", "file:///a/node_modules/@scope/pkg/lib/x.js"), root)).toBe("@scope/pkg");
    expect(groupOf(frame("x", "file:///a/node_modules/pg/lib/client.js"), root)).toBe("pg");
    expect(groupOf(frame("x", `file://${root}/server/auth/session.ts`), root)).toBe("server/auth/session.ts");
    expect(groupOf(frame("x", `file://${root}/build-bench/server/index.js`), root)).toBe("app (server build)");
    expect(groupOf(frame("x", "node:internal/streams/readable"), root)).toBe("node: internals");
    expect(groupOf(frame("(garbage collector)"), root)).toBe("(garbage collector)");
  });

  it("counts self and inclusive time, idle apart, and only inside the window", () => {
    const all = breakdown(profile, root);
    expect(all.busyMs).toBeCloseTo(0.6);
    expect(all.idleMs).toBeCloseTo(0.4);
    const byName = new Map(all.groups.map((g) => [g.name, g]));
    expect(byName.get("server/app.ts")).toMatchObject({ selfMs: 0.1, inclusiveMs: 0.4 });
    expect(byName.get("react-dom")).toMatchObject({ selfMs: 0.3, inclusiveMs: 0.3 });
    expect(byName.get("(garbage collector)")).toMatchObject({ selfMs: 0.2 });
    // The samples at 1,100 and 1,400 µs only: render, then idle.
    const window = breakdown(profile, root, { fromUs: 1_050, toUs: 1_500 });
    expect(window.groups.map((g) => g.name)).toEqual(["react-dom", "server/app.ts"]);
    expect(window.idleMs).toBeCloseTo(0.4);
  });

  it("sorts the time into what it went to", () => {
    const { folded } = breakdown(profile, root);
    expect(categories(folded)).toEqual([
      { name: "React's render (react-dom, the components)", ms: 0.3 },
      { name: "garbage collection", ms: 0.2 },
      { name: "other", ms: 0.1 },
    ]);
  });

  it("writes folded stacks and a flame graph with every stack in it", () => {
    const { folded } = breakdown(profile, root);
    expect(foldedText(folded)).toContain("handler server/app.ts:10;render react-dom/server.js:1 300\n");
    const svg = flameGraphSvg(folded, "t");
    expect(svg).toContain("<svg");
    expect(svg).toMatch(/render react-dom\/server\.js:1 \(0\.3 ms, 50\.00%\)/);
  });
});

describe("withSetCookies", () => {
  it("replaces a cookie set again, adds a new one and drops one cleared", () => {
    const cookie = "a=1; session_data=old; gone=x";
    const set = ["session_data=new; Path=/; HttpOnly", "b=2; Path=/", "gone=; Max-Age=0; Path=/"];
    expect(withSetCookies(cookie, set)).toBe("a=1; session_data=new; b=2");
    expect(withSetCookies(cookie, ["a=2; Max-Age=0"])).toBe("session_data=old; gone=x");
  });
});
