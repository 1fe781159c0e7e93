/**
 * patches/react-router+7.18.4.patch (decision 0092): `ServerRouter` makes a build's server routes
 * once, and `createStaticRouter` its data routes once for the same routes, instead of at every
 * render. Each request brings a fresh entry context (React Router makes its `routeModules` anew
 * every time); what stays the same is the build's route manifest, so the cache is keyed by it.
 */
import { createElement as h, useContext } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  ServerRouter,
  UNSAFE_DataRouterContext,
  useLoaderData,
  type EntryContext,
  type StaticHandlerContext,
} from "react-router";
import { describe, expect, it } from "vitest";

const seen: unknown[] = [];
function Root() {
  seen.push(useContext(UNSAFE_DataRouterContext)?.router.routes);
  return h("p", null, `hello ${String((useLoaderData() as { name: string }).name)}`);
}

const manifestRoutes = {
  root: {
    id: "root",
    path: "",
    module: "/root.js",
    hasAction: false,
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
  },
};

async function entryContext(name: string): Promise<EntryContext> {
  const handler = createStaticHandler([{ id: "root", path: "/", loader: () => ({ name }) }]);
  const staticHandlerContext = (await handler.query(new Request("http://localhost/"))) as StaticHandlerContext;
  return {
    manifest: { entry: { module: "/entry.js", imports: [] }, routes: manifestRoutes, url: "/manifest.js", version: "1", hmr: undefined, sri: undefined },
    // A fresh object per request, as React Router's request handler makes it.
    routeModules: { root: { default: Root } },
    staticHandlerContext,
    criticalCss: undefined,
    serverHandoffString: "{}",
    future: {},
    ssr: true,
    isSpaMode: false,
    routeDiscovery: { mode: "initial" },
    serializeError: (error: Error) => ({ message: error.message }),
    renderMeta: {},
  } as unknown as EntryContext;
}

describe("React Router's routes for a render", () => {
  it("are made once a build: two renders of two requests see the same route objects, each its own data", async () => {
    seen.length = 0;
    const first = renderToString(h(ServerRouter, { context: await entryContext("Ada"), url: "http://localhost/" }));
    const second = renderToString(h(ServerRouter, { context: await entryContext("Grace"), url: "http://localhost/" }));
    expect(first).toContain("hello Ada");
    expect(second).toContain("hello Grace");
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeDefined();
    expect(seen[1]).toBe(seen[0]);
  });

  it("createStaticRouter reuses the data routes of the same routes array, and makes new ones for another", async () => {
    const routes = [{ id: "a", path: "/" }];
    const handler = createStaticHandler(routes);
    const context = (await handler.query(new Request("http://localhost/"))) as StaticHandlerContext;
    const one = createStaticRouter(routes, context);
    const two = createStaticRouter(routes, context);
    const other = createStaticRouter([{ id: "a", path: "/" }], context);
    expect(two.routes).toBe(one.routes);
    expect(other.routes).not.toBe(one.routes);
    expect(one.state.matches[0]?.route).toBe(one.routes[0]);
  });
});
