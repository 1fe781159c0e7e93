import { buildSitemap } from "#server/marketing/sitemap.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const { db, config } = context.services;
    return new Response(await buildSitemap(db, config.publicUrl), {
      headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
    });
  });
}
