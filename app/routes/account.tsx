import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Account", "Your Digs & Gigs account.");

export default function Account() {
  return <PageHeader title="Account" />;
}
