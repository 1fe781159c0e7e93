import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Digger Profile", "A digger's public profile: skills, rates, credentials and work.");

export default function DiggerProfile() {
  return <PageHeader title="Digger Profile" />;
}
