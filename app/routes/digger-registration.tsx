import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Create Your Digger Profile", "Build your public digger profile: services, rates, credentials and references.");

export default function DiggerRegistration() {
  return <PageHeader title="Create Your Digger Profile" subtitle="Tell clients what you do. Only your handle is shown publicly." />;
}
