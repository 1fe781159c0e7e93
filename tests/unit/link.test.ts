/**
 * app/components/link.tsx (issue 52): on the server, a link to a plain path of this site is drawn
 * as React Router's Link draws it, attribute for attribute, under a router at a nested route;
 * anything else is React Router's own Link. Pages take Link from there only (eslint.config.js).
 */
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, Link as RouterLink, NavLink as RouterNavLink, Outlet, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { lintRefusals } from "../support/lint-refusals.ts";
import { Link, NavLink } from "../../app/components/link.tsx";

type Props = Record<string, unknown>;

/** `children` rendered on /my-gigs/g1/quotes (a route nested two deep) or at `url`, as the server renders a page. */
async function underRouter(children: () => ReactNode, url = "http://localhost/my-gigs/g1/quotes?x=1"): Promise<string> {
  const page = () => h("main", null, children());
  const routes = [
    {
      path: "/",
      Component: () => h(Outlet),
      children: [
        { index: true, Component: page },
        { path: "my-gigs/:gigId", Component: () => h(Outlet), children: [{ path: "quotes", Component: page }] },
        { path: "*", Component: page },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error("no page");
  return renderToStaticMarkup(h(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context, hydrate: false }));
}

const TARGETS = [
  "/",
  "/browse-gigs",
  "/my-gigs/",
  "/gig/8e05f4cd-2e0d-4eb9-9cc3-6342892c8e47",
  "/browse-gigs?q=tile%20work&category=a&category=b",
  "/messages/t1#message-9",
  "/ops/users?after=x/y?z#h?q",
  "/digger/ü ß",
  // React Router's own: relative, normalised, empty search or hash, another site.
  "?cursor=abc",
  "edit",
  "../issues",
  "/a//b",
  "/a/./b",
  "/a/../b",
  "/a?",
  "/a#",
  "https://example.com/x",
  "//example.com/x",
  "",
];
const PROPS: Props[] = [
  {},
  { className: "button button-outline", "aria-describedby": "t", id: "l1", children: "Open" },
  { target: "_blank", rel: "noreferrer", children: "New tab" },
  { discover: "none", children: "No discovery" },
  { replace: true, state: { from: 1 }, preventScrollReset: true, relative: "path", viewTransition: true, children: "Options" },
  { prefetch: "intent", children: "Prefetched" },
  { prefetch: "render", children: "Prefetched now" },
  { reloadDocument: true, children: "Reload" },
  { onClick: () => undefined, style: { color: "red" }, "data-x": "1", children: h("span", null, "Nested") },
];

describe("Link", () => {
  it("draws React Router's markup for every target and options, on the server", async () => {
    for (const to of TARGETS) {
      for (const props of PROPS) {
        const ours = await underRouter(() => h(Link, { to, ...props } as never));
        const theirs = await underRouter(() => h(RouterLink, { to, ...props } as never));
        expect(ours, `${to} ${JSON.stringify(props)}`).toBe(theirs);
      }
    }
    expect(await underRouter(() => h(Link, { to: "/browse-gigs" }, "Browse"))).toContain('<a href="/browse-gigs" data-discover="true">Browse</a>');
    // A plain path is drawn without React Router's work (which needs a router); the rest is its Link.
    expect(renderToStaticMarkup(h(Link, { to: "/my-leads", className: "x" }, "My Leads"))).toBe('<a class="x" href="/my-leads" data-discover="true">My Leads</a>');
    expect(() => renderToStaticMarkup(h(Link, { to: "?cursor=abc" }, "More"))).toThrow(/basename/);
  });

  it("is the only Link and NavLink a page imports: React Router's, imported elsewhere in app/, are refused", async () => {
    const code = `import { Link, NavLink, useFetcher } from "react-router";\nexport const used = [Link, NavLink, useFetcher];\n`;
    const refusals = (filePath: string) => lintRefusals(code, filePath, "app/components/link.tsx");
    expect(await refusals("app/features/leads/throwaway.tsx")).toBe(2);
    expect(await refusals("app/routes/throwaway.tsx")).toBe(2);
    expect(await refusals("app/components/link.tsx")).toBe(0);
  }, 60_000);
});

const NAV_LOCATIONS = ["/", "/my-gigs", "/my-gigs/", "/My-Gigs", "/my-gigs/g1/quotes", "/my-gigsx", "/messages/t1?x=1", "/ops/users", "/digger/%C3%BC", "/browse-gigs", "/browse-gigs?location=Durham", "/browse-gigsx"];
const NAV_TARGETS = [
  "/",
  "/my-gigs",
  "/my-gigs/",
  "/MY-GIGS",
  "/messages",
  "/ops/users",
  "/ops",
  "/browse-gigs?q=1",
  // The header's Browse Gigs link for a digger with an area (the query as URLSearchParams writes it).
  "/browse-gigs?location=Durham",
  "/browse-gigs?location=San+Jose%2C+CA",
  "/browse-gigs/?location=x",
  "/browse-gigs?location=a?b",
  "/browse-gigs?",
  "/a//b",
  "/digger/ü",
  "my-gigs",
  "../x",
];
const NAV_PROPS: Props[] = [
  { children: "Go" },
  { className: "button button-ghost", children: "Go" },
  { end: true, className: "x", children: "End" },
  { caseSensitive: true, children: "Case" },
  { "aria-current": "location", children: "Current" },
  { className: ({ isActive }: { isActive: boolean }) => (isActive ? "on" : "off"), style: ({ isActive }: { isActive: boolean }) => ({ fontWeight: isActive ? 700 : 400 }), children: ({ isActive }: { isActive: boolean }) => (isActive ? "Here" : "There") },
  { prefetch: "intent", children: "Prefetched" },
  { viewTransition: true, children: "Transition" },
];

describe("NavLink", () => {
  it("draws React Router's markup, active or not, for every location, target and options, on the server", async () => {
    for (const at of NAV_LOCATIONS) {
      for (const to of NAV_TARGETS) {
        for (const props of NAV_PROPS) {
          const url = `http://localhost${at}`;
          const ours = await underRouter(() => h(NavLink, { to, ...props } as never), url);
          const theirs = await underRouter(() => h(RouterNavLink, { to, ...props } as never), url);
          expect(ours, `${at} ${to} ${JSON.stringify(props)}`).toBe(theirs);
        }
      }
    }
    expect(await underRouter(() => h(NavLink, { to: "/my-gigs" }, "My Gigs"), "http://localhost/my-gigs/g1/quotes")).toContain(
      '<a aria-current="page" class="active" href="/my-gigs" data-discover="true">My Gigs</a>',
    );
    expect(await underRouter(() => h(NavLink, { to: "/my-leads" }, "My Leads"), "http://localhost/my-gigs")).toContain('<a class="" href="/my-leads" data-discover="true">My Leads</a>');
    // With a query, active by its path alone.
    const browse = h(NavLink, { to: "/browse-gigs?location=Durham" }, "Browse Gigs");
    expect(await underRouter(() => browse, "http://localhost/browse-gigs?q=tile")).toContain('<a aria-current="page" class="active" href="/browse-gigs?location=Durham" data-discover="true">Browse Gigs</a>');
  });
});
