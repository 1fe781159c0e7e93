/**
 * What a browser or a cache may keep (issue 45, finding 6). An answer that depends on the
 * session is `Cache-Control: private, no-store`, so that a shared device keeps no copy of a
 * private thread or account page after its user signs out, and Back after a sign-out asks the
 * server again (which answers with the sign-in page). Such a request is known where its session
 * is read: the session lookup (auth/session.ts) marks it when the request carries a session
 * cookie, whether or not the session turns out good, and so do Better Auth's own answers
 * (app.ts). A response that sets a cookie is private too. Signed-out views of public pages read
 * no session: they keep their caching (the page cache, decision 0010), and so do the built
 * assets and uploads, which no session changes. A sign-out also answers
 * `Clear-Site-Data: "cache"`, which makes the browser drop what it kept of the site before
 * (its HTTP cache and its back/forward cache), pages kept before these headers included.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";

const PRIVATE_CACHE_CONTROL = "private, no-store";
const CLEAR_CACHE = '"cache"';

interface RequestMarks {
  sessionRead: boolean;
  signedOut: boolean;
}

const requests = new AsyncLocalStorage<RequestMarks>();

/** The current request's answer depends on its session (nothing outside a request). */
export function markSessionRead(): void {
  const marks = requests.getStore();
  if (marks) marks.sessionRead = true;
}

/** The current request ended its browser's session (Better Auth's sign-out, however reached). */
export function markSignedOut(): void {
  const marks = requests.getStore();
  if (marks) {
    marks.sessionRead = true;
    marks.signedOut = true;
  }
}

/** The middleware: outside every route that may read a session, so that it sees their marks. */
export function privateResponses(): MiddlewareHandler {
  return async (c, next) => {
    const marks: RequestMarks = { sessionRead: false, signedOut: false };
    await requests.run(marks, next);
    const headers = c.res.headers;
    // An answer already private and no-store keeps its own words (the live stream adds no-transform).
    if ((marks.sessionRead || headers.has("Set-Cookie")) && !isPrivateNoStore(headers.get("Cache-Control"))) {
      headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    }
    if (marks.signedOut) headers.set("Clear-Site-Data", CLEAR_CACHE);
  };
}

function isPrivateNoStore(value: string | null): boolean {
  const directives = new Set((value ?? "").split(",").map((directive) => directive.trim().toLowerCase()));
  return directives.has("private") && directives.has("no-store");
}
