import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Privacy Policy", "How Digs & Gigs collects, uses and protects your data.");

export default function Privacy() {
  return <PageHeader title="Privacy Policy" />;
}
