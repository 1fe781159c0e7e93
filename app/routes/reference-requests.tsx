import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireUser } from "#server/auth/guards.ts";
import type { Route } from "./+types/reference-requests";

export const meta = () => pageMeta("Reference Requests", "Clients asking for your references' contact details.");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request, {
    userType: { type: "digger", message: "Only diggers can access this page", redirectTo: "/" },
  });
  return null;
}

export default function ReferenceRequests() {
  return <PageHeader title="Reference Requests" subtitle="Clients asking for your references' contact details." />;
}
