import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("How It Works", "How clients post gigs for free and diggers pay only per lead.");

export default function HowItWorks() {
  return <PageHeader title="How It Works" subtitle="Post for free, or pay only for the leads you want." />;
}
