import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Gig Details", "A client's service request on Digs & Gigs.");

export default function GigDetail() {
  return <PageHeader title="Gig Details" />;
}
