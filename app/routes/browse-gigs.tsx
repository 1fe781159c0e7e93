import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Browse Gigs", "Open service requests from local clients. Buy a lead to contact the client.");

export default function BrowseGigs() {
  return <PageHeader title="Browse Gigs" subtitle="Open requests from clients near you." />;
}
