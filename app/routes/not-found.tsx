import { data } from "react-router";
import { NotFoundPage } from "#app/components/not-found-page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import type { Route } from "./+types/not-found";

export function loader({ url, context }: Route.LoaderArgs) {
  const path = url.pathname;
  context.logger.warn({ path }, "page not found");
  return data({ path }, { status: 404 });
}

export const meta = () => pageMeta("Page not found", "The page you asked for does not exist.");

export default function NotFound() {
  return <NotFoundPage />;
}
