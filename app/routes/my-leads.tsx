import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("My Leads", "The leads you have purchased, with the clients' contact details.");

export default function MyLeads() {
  return <PageHeader title="My Leads" subtitle="The leads you have purchased." />;
}
