import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Terms of Service", "The terms that govern the use of Digs & Gigs.");

export default function Terms() {
  return <PageHeader title="Terms of Service" />;
}
