/**
 * A role's crawl of the site: from some seed pages, following the site's own links (and the
 * sitemap's), each page asked for once, up to MAX_PAGES. Used by the private-data search
 * (security-private-data.test.ts) and the class-list check (class-lists.test.ts).
 */
import { decodeHtml } from "../support/leads.ts";
import type { SessionClient } from "../support/session-client.ts";
import type { World } from "./world.ts";

/** Pages no link leads to, and the ids of the seeded world (world.ts). */
export const worldPages = (w: World) => [
  "/",
  `/gig/${w.gig.id}`,
  `/digger/${w.users.owningDigger.diggerId}`,
  `/digger/${w.users.otherDigger.diggerId}`,
  `/my-gigs/${w.gig.id}/issues`,
  `/my-gigs/${w.gig.id}/diggers`,
  `/my-gigs/${w.gig.id}/quotes`,
  "/my-gigs",
  "/my-leads",
  "/reference-requests",
  "/notifications",
  "/messages",
  `/messages/${w.thread.id}`,
  "/account",
  "/digger-registration",
  "/post-gig",
  "/sitemap.xml",
  "/robots.txt",
  "/reset-password",
  "/ops/users",
  "/ops/audit",
  "/ops/gigs",
  "/ops/reviews",
  "/ops/messages",
  "/ops/payments",
  "/ops/verification",
];

/** Not crawled: leaving the session, local-mode mail (404 in production), files, the .data twins themselves. */
const SKIP = /^\/(sign-out|dev\/|uploads\/|assets\/|api\/)|\.data$/;
const MAX_PAGES = 200;

/** The same-site links of a page. */
function linksOf(body: string): string[] {
  const out: string[] = [];
  for (const match of body.matchAll(/href="(\/[^"#]*)"/g)) out.push(decodeHtml(match[1]!));
  for (const match of body.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)) out.push(match[1]!);
  return out;
}

/** React Router's data request for a page. */
const dataUrl = (path: string) => {
  const url = new URL(path, "http://x");
  // With trailing-slash-aware data requests, the home page's is /_.data (/_root.data is a 404).
  return `${url.pathname === "/" ? "/_" : url.pathname}.data${url.search}`;
};

export interface Crawled {
  url: string;
  status: number;
  /** The answer's text, HTML entities for quotes and ampersands decoded. */
  body: string;
  /** Its Cache-Control header, if any. */
  cacheControl: string | null;
}

/**
 * Visits each page `client` reaches from `seeds`, and with `data` its data request too. Returns
 * how many pages and responses.
 */
export async function crawl(
  client: SessionClient,
  seeds: string[],
  visit: (crawled: Crawled) => void,
  { data = false }: { data?: boolean } = {},
): Promise<{ pages: number; responses: number }> {
  const queue = [...seeds];
  const seen = new Set<string>();
  let responses = 0;
  while (queue.length > 0 && seen.size < MAX_PAGES) {
    const path = queue.shift()!;
    if (seen.has(path) || SKIP.test(path)) continue;
    seen.add(path);
    for (const url of data ? [path, dataUrl(path)] : [path]) {
      const response = await client.get(url);
      responses += 1;
      const body = decodeHtml(await response.text());
      visit({ url, status: response.status, body, cacheControl: response.headers.get("cache-control") });
      if (url === path && response.status === 200) for (const link of linksOf(body)) if (!seen.has(link)) queue.push(link);
    }
  }
  return { pages: seen.size, responses };
}
