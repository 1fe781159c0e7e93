import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("My Gigs", "Manage your posted gigs and review lead requests.");

export default function MyGigs() {
  return <PageHeader title="My Gigs" subtitle="Manage your posted gigs and review lead requests" />;
}
