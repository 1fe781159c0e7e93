import { sitemapFile } from "#server/marketing/sitemap.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/sitemap";

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, sitemapFile);
}
