import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Post a Gig", "Describe the work you need done and get discovered by local diggers. Posting is free.");

export default function PostGig() {
  return <PageHeader title="Post a Gig" subtitle="Describe your project. Posting is free for clients." />;
}
