/**
 * Child of bench/render-loop.ts: renders one route's component of the checkout it runs in (its
 * working directory) from saved loader data, with React's string renderer in a loop, and prints
 * the microseconds a render as JSON. Run with NODE_ENV=production (React's production build).
 *
 *   node --import tsx bench/lib/render-child.tsx <route file> <route id> <path> <data.json> <ms>
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";

const [routeFile, routeId, page, dataFile, ms] = process.argv.slice(2);
if (!routeFile || !routeId || !page || !dataFile || !ms) throw new Error("render-child: <route file> <route id> <path> <data.json> <ms>");
const loaderData: unknown = JSON.parse(readFileSync(dataFile, "utf8"));
const route = (await import(path.resolve(process.cwd(), routeFile))) as { default: never };
// React Router's stub passes the route component its loaderData, as the framework does.
const Stub = createRoutesStub([{ path: page.split("?")[0], id: routeId, Component: route.default, loader: () => loaderData }]);
const element = createElement(Stub, { initialEntries: [page], hydrationData: { loaderData: { [routeId]: loaderData } } });
const html = renderToString(element);
// Warmed until V8 has optimized the render, then timed.
for (let i = 0; i < 200; i++) renderToString(element);
const started = performance.now();
let renders = 0;
while (performance.now() - started < Number(ms)) {
  renderToString(element);
  renders++;
}
console.log(JSON.stringify({ us: ((performance.now() - started) * 1000) / renders, bytes: Buffer.byteLength(html), renders }));
