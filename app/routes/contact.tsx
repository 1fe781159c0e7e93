import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Contact Us", "Questions about Digs & Gigs? Send us a message.");

export default function Contact() {
  return <PageHeader title="Contact Us" subtitle="We usually answer within one business day." />;
}
