import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, PRODUCT_NAME } from "#app/lib/meta.ts";
import type { Route } from "./+types/auth";

/** The spec's title rule: Digger Portal for diggers, Post a Gig on the way to /post-gig. */
function authTitle(searchParams: URLSearchParams): string {
  if (searchParams.get("type") === "digger") return "Digger Portal";
  if (searchParams.get("redirect") === "/post-gig") return "Post a Gig";
  return PRODUCT_NAME;
}

export function loader({ request }: Route.LoaderArgs) {
  return { title: authTitle(new URL(request.url).searchParams) };
}

export const meta = ({ data }: Route.MetaArgs) =>
  pageMeta(data?.title ?? PRODUCT_NAME, "Sign in or create a free Digs & Gigs account.");

export default function Auth({ loaderData }: Route.ComponentProps) {
  return <PageHeader title={loaderData.title} subtitle="Sign in or create a free account." />;
}
