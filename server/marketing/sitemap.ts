/**
 * sitemap.xml: the public pages, listed gigs and digger profiles, newest first. One file holds
 * at most 50,000 addresses (the sitemap protocol's limit); past that the oldest are left out.
 */
import { desc, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs } from "../db/schema.ts";
import { everyoneAlike } from "../guards.ts";
import { forSale } from "../leads/for-sale.ts";
import { defineOperation } from "../operation.ts";

const STATIC_PATHS = ["/", "/browse-gigs", "/browse-diggers", "/how-it-works", "/contact", "/terms", "/privacy"];
const MAX_PER_KIND = 24_000;

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

async function buildSitemap(db: Database, publicUrl: string): Promise<string> {
  const [openGigs, diggers] = await Promise.all([
    db
      .select({ id: gigs.id, changed: gigs.updatedAt })
      .from(gigs)
      .where(forSale())
      .orderBy(desc(gigs.createdAt), desc(gigs.id))
      .limit(MAX_PER_KIND),
    db
      .select({ id: diggerProfiles.id, changed: diggerProfiles.updatedAt })
      .from(diggerProfiles)
      .where(isNull(diggerProfiles.hiddenAt))
      .orderBy(desc(diggerProfiles.averageRating), diggerProfiles.id)
      .limit(MAX_PER_KIND),
  ]);
  const entry = (path: string, changed?: Date) =>
    `<url><loc>${escapeXml(publicUrl + path)}</loc>${changed ? `<lastmod>${changed.toISOString()}</lastmod>` : ""}</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...STATIC_PATHS.map((p) => entry(p)),
    ...openGigs.map((g) => entry(`/gig/${g.id}`, g.changed)),
    ...diggers.map((d) => entry(`/digger/${d.id}`, d.changed)),
    "</urlset>",
  ].join("\n");
}

/** robots.txt: everything public may be indexed; private and transactional pages not. */
export function buildRobotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...["/account", "/my-gigs", "/my-leads", "/reference-requests", "/checkout/", "/post-gig", "/digger-registration", "/auth", "/reset-password", "/verify-email", "/dev/", "/api/", "/unsubscribe"].map(
      (path) => `Disallow: ${path}`,
    ),
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/** /sitemap.xml: the file, cached for an hour by whoever fetches it (so no session is read). */
export const sitemapFile = defineOperation({
  access: everyoneAlike,
  async run({ services: { db, config } }): Promise<Response> {
    return new Response(await buildSitemap(db, config.publicUrl), {
      headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
    });
  },
});
