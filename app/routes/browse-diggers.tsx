import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Browse Talent", "Find verified local service providers by skill, rating, experience and rate.");

export default function BrowseDiggers() {
  return <PageHeader title="Browse Talent" subtitle="Find the right digger for your project." />;
}
