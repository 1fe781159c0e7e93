/**
 * Links to pages of the app (issue 52). In the browser, React Router's `Link`. On the server, a
 * link to a plain path of this site ("/my-gigs", "/gig/{id}?x=1#y": no "//", no dot segment,
 * the common case) is the `<a>` React Router's `Link` draws, written directly: its `Link` works
 * out the href against the route's matches and sets up its click handler, prefetching and
 * discovery in a dozen hooks, 7-10 µs a link, and a list page draws 60-90 of them. Any other
 * link (relative, an object, a prefetch or a reload) is React Router's on the server too.
 * `NavLink` likewise (the site header's 8-10 links on every page): on the server, for a path of
 * letters, digits, "-", "_" and "/" (and a query), whether it is the page's (`active`, `aria-current`) is
 * worked out as React Router's NavLink does, from the location alone (no navigation is pending
 * on the server), and the link drawn as above.
 * tests/unit/link.test.ts draws both under a router and compares them; pages take `Link` and
 * `NavLink` from here only (eslint.config.js).
 */
import { createElement, type RefAttributes } from "react";
import { Link as RouterLink, NavLink as RouterNavLink, useLocation, type LinkProps, type NavLinkProps } from "react-router";

/** A path of this site that React Router resolves to itself: no "//", no "." or ".." segment, no empty "?" or "#". */
const PLAIN_PATH = /^\/(?:[^/?#\\.][^/?#\\]*(?:\/[^/?#\\.][^/?#\\]*)*\/?)?(?:\?[^#]+)?(?:#.+)?$/;

type Props = LinkProps & RefAttributes<HTMLAnchorElement>;

/** What React Router's Link leaves out of the <a> (its own options, the handlers the server never runs). */
const LINK_OPTIONS = new Set([
  "to",
  "discover",
  "prefetch",
  "relative",
  "reloadDocument",
  "replace",
  "state",
  "target",
  "preventScrollReset",
  "viewTransition",
  "defaultShouldRevalidate",
  "onClick",
  "ref",
]);

function ServerLink(props: Props) {
  const { to, discover = "render", prefetch = "none", reloadDocument, target } = props;
  if (typeof to !== "string" || !PLAIN_PATH.test(to) || prefetch !== "none" || reloadDocument || "mask" in props) return createElement(RouterLink, props);
  // Copied key by key, in their order: `{ ...rest, href }` over props of many shapes takes V8's
  // slow path (adding a key to a spread copy), 1-2.5 µs a link against 0.1 (issue 52).
  const anchor: Record<string, unknown> = {};
  for (const key in props) if (!LINK_OPTIONS.has(key)) anchor[key] = props[key as keyof Props];
  anchor.href = to;
  anchor.target = target;
  anchor["data-discover"] = discover === "render" ? "true" : undefined;
  return createElement("a", anchor);
}

/** React Router's Link, drawn directly on the server for a plain path of this site. */
export const Link: typeof RouterLink = typeof document === "undefined" ? (ServerLink as unknown as typeof RouterLink) : RouterLink;

/** A path React Router neither encodes nor resolves to anything else, with or without a query (and PLAIN_PATH's). */
const NAV_PATH = /^\/[\w\-/]*(?:\?[^#]*)?$/;

function ServerNavLink(props: NavLinkProps & RefAttributes<HTMLAnchorElement>) {
  const location = useLocation();
  const { to, className = "", style, children, end = false, caseSensitive = false, "aria-current": ariaCurrentProp = "page", viewTransition, ...rest } = props;
  if (typeof to !== "string" || !NAV_PATH.test(to) || !PLAIN_PATH.test(to) || viewTransition) return createElement(RouterNavLink, props);
  // React Router's NavLink's rule, with no navigation pending and no view transition: the path
  // alone, not its query ("/browse-gigs?location=Durham" is active on /browse-gigs).
  const path = to.split("?", 1)[0]!;
  const here = caseSensitive ? location.pathname : location.pathname.toLowerCase();
  const target = caseSensitive ? path : path.toLowerCase();
  const endSlash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  const isActive = here === target || (!end && here.startsWith(target) && here.charAt(endSlash) === "/");
  const state = { isActive, isPending: false, isTransitioning: false };
  // Key by key, as ServerLink's <a>: not `{ ...rest, to }` (decision 0066).
  const link: Record<string, unknown> = {};
  for (const key in rest) link[key] = rest[key as keyof typeof rest];
  link["aria-current"] = isActive ? ariaCurrentProp : undefined;
  link.className = typeof className === "function" ? className(state) : [className, isActive ? "active" : null].filter(Boolean).join(" ");
  link.style = typeof style === "function" ? style(state) : style;
  link.to = to;
  return createElement(ServerLink, link as unknown as Props, typeof children === "function" ? children(state) : children);
}

/** React Router's NavLink, drawn directly on the server for a simple path of this site. */
export const NavLink: typeof RouterNavLink = typeof document === "undefined" ? (ServerNavLink as unknown as typeof RouterNavLink) : RouterNavLink;
