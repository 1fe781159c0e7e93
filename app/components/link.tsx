/**
 * Links to pages of the app (issue 52). In the browser, React Router's `Link`. On the server, a
 * link to a plain path of this site ("/my-gigs", "/gig/{id}?x=1#y": no "//", no dot segment,
 * the common case) is the `<a>` React Router's `Link` draws, written directly: its `Link` works
 * out the href against the route's matches and sets up its click handler, prefetching and
 * discovery in a dozen hooks, 7-10 µs a link, and a list page draws 60-90 of them. Any other
 * link (relative, an object, a prefetch or a reload) is React Router's on the server too.
 * tests/unit/link.test.ts draws both under a router and compares them; pages take `Link` from
 * here only (eslint.config.js).
 */
import { createElement, type RefAttributes } from "react";
import { Link as RouterLink, type LinkProps } from "react-router";

/** A path of this site that React Router resolves to itself: no "//", no "." or ".." segment, no empty "?" or "#". */
const PLAIN_PATH = /^\/(?:[^/?#\\.][^/?#\\]*(?:\/[^/?#\\.][^/?#\\]*)*\/?)?(?:\?[^#]+)?(?:#.+)?$/;

type Props = LinkProps & RefAttributes<HTMLAnchorElement>;

function ServerLink(props: Props) {
  const { to, discover = "render", prefetch = "none", reloadDocument, target } = props;
  if (typeof to !== "string" || !PLAIN_PATH.test(to) || prefetch !== "none" || reloadDocument || "mask" in props) return createElement(RouterLink, props);
  // What React Router's Link leaves out of the <a> (its own options, the handlers the server never runs).
  const {
    to: _to,
    discover: _discover,
    prefetch: _prefetch,
    relative: _relative,
    reloadDocument: _reload,
    replace: _replace,
    state: _state,
    target: _target,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    onClick: _onClick,
    ref: _ref,
    ...rest
  } = props;
  return createElement("a", { ...rest, href: to, target, "data-discover": discover === "render" ? "true" : undefined });
}

/** React Router's Link, drawn directly on the server for a plain path of this site. */
export const Link: typeof RouterLink = typeof document === "undefined" ? (ServerLink as unknown as typeof RouterLink) : RouterLink;
