/**
 * Cross-site request forgery: a state-changing request (any method but GET and HEAD) must come
 * from the site itself. Browsers send `Origin` on every such request, so it must equal the
 * public URL's origin; when a client sends no Origin, a browser's `Sec-Fetch-Site` other than
 * `same-origin` (or `none`) is still refused (clients that send neither, like curl, are not
 * browsers and carry no victim's cookies). Paths verified some other way (Stripe's signed webhook) are exempt.
 */
import type { MiddlewareHandler } from "hono";

export const CROSS_SITE_REFUSED = "Cross-site request refused: this form must be sent from the Digs & Gigs site.";

export interface OriginCheckOptions {
  /** The site's public URL (config.publicUrl). */
  publicUrl: string;
  /** Exact paths that skip the check because they verify their requests themselves. */
  exemptPaths: readonly string[];
  /**
   * Local mode: the public URL's loopback host may be reached by any loopback name
   * (localhost, 127.0.0.1, [::1]) on the same port and scheme; all are this machine.
   */
  loopbackAliases?: boolean;
}

export const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function sameSite(origin: string, expected: URL, loopbackAliases: boolean): boolean {
  if (origin === expected.origin) return true;
  if (!loopbackAliases || !LOOPBACK_HOSTS.has(expected.hostname)) return false;
  try {
    const url = new URL(origin);
    return url.protocol === expected.protocol && url.port === expected.port && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** Why a request is refused, or null when it may go on. */
export function crossSiteRefusal(
  method: string,
  path: string,
  headers: { origin: string | undefined; secFetchSite: string | undefined },
  { publicUrl, exemptPaths, loopbackAliases = false }: OriginCheckOptions,
): string | null {
  if (method === "GET" || method === "HEAD") return null;
  if (exemptPaths.includes(path)) return null;
  if (headers.origin !== undefined) {
    return sameSite(headers.origin, new URL(publicUrl), loopbackAliases)
      ? null
      : `Origin ${JSON.stringify(headers.origin.slice(0, 100))} is not this site`;
  }
  // Without an Origin, a browser that says where the request came from must say "this site"
  // (or "none": typed by the person); a sibling subdomain ("same-site") is another site too.
  if (headers.secFetchSite !== undefined && headers.secFetchSite !== "same-origin" && headers.secFetchSite !== "none") {
    return `Sec-Fetch-Site: ${headers.secFetchSite.slice(0, 20)} without an Origin`;
  }
  return null;
}

export function originCheck(options: OriginCheckOptions): MiddlewareHandler {
  return async (c, next) => {
    const reason = crossSiteRefusal(
      c.req.method,
      c.req.path,
      { origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site")?.toLowerCase() },
      options,
    );
    if (reason) {
      (c.get("logger") as { warn(o: object, m: string): void } | undefined)?.warn(
        { method: c.req.method, path: c.req.path, reason },
        "cross-site request refused",
      );
      return c.text(CROSS_SITE_REFUSED, 403);
    }
    await next();
  };
}
