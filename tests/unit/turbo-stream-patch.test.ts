/**
 * patches/react-router+7.18.4.patch, its turbo-stream part (issue 52): the encoder of loaders'
 * data (a page's data for hydration, a `.data` request's answer) read the clock for every value
 * and made a one-number array for every value or key it had seen before; the patch reads the
 * clock when it looks at it (every 6,000 values) and returns the index itself. What it writes is
 * the same: the answer here decodes to the loader's data, repeated keys and values included.
 */
import { createRequestHandler, UNSAFE_decodeViaTurboStream as decodeViaTurboStream, type ServerBuild } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

const shared = { title: "Kitchen tap", budget: 120_000 };
/** 300 cards, each with the same keys and some of the same values: 900-odd values to encode. */
const data = {
  cards: Array.from({ length: 300 }, (_, i) => ({ id: `lead-${i}`, state: i % 2 ? "active" : "hired", gig: shared, times: { purchased: "Feb 20, 2026", decideBy: null }, zero: 0, paid: 5000 })),
  total: 0,
};

function build(): ServerBuild {
  const route = { id: "root", path: "", index: undefined, caseSensitive: undefined, parentId: undefined, module: { default: () => null, loader: () => data } };
  return {
    entry: { module: { default: () => new Response("") } },
    routes: { root: route },
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: { root: { id: "root", path: "", module: "/root.js", hasAction: false, hasLoader: true, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false, hasErrorBoundary: false } },
      url: "/manifest.js",
      version: "1",
    },
    publicPath: "/",
    assetsBuildDirectory: "public",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial" },
  } as unknown as ServerBuild;
}

afterEach(() => vi.restoreAllMocks());

describe("turbo-stream's encoder (our patch of react-router)", () => {
  it("encodes a loader's data that decodes to the same data, reading the clock a few times, not once a value", async () => {
    const handler = createRequestHandler(build(), "production");
    const clock = vi.spyOn(Date, "now");
    const response = await handler(new Request("http://localhost/_root.data"));
    const reads = clock.mock.calls.length;
    clock.mockRestore();
    expect(response.status).toBe(200);
    const decoded = await decodeViaTurboStream(response.body!, globalThis);
    await decoded.done;
    expect((decoded.value as Record<string, { data?: unknown }>).root?.data).toEqual(data);
    // Unpatched: one read for each of the 900-odd values.
    expect(reads).toBeLessThan(50);
  });
});
