import { useEffect } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { LeadCard } from "#app/features/leads/lead-card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { loadMyLeads, reportIssue } from "#server/leads/my-leads.ts";
import type { Route } from "./+types/my-leads";

export const meta = () => pageMeta("My Leads", "The leads you have purchased, with the clients' contact details.");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadMyLeads(context, request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return reportIssue(context, request);
}

export default function MyLeads({ loaderData }: Route.ComponentProps) {
  const { page, error } = loaderData;
  // 'Failed to load leads' is a toast (spec section 8); the page says no more than that.
  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);
  return (
    <div>
      <PageHeader title="My Leads" subtitle="Your purchased leads and the clients' contact details" />
      {error ? (
        <p role="status" className="py-12 text-center text-muted-foreground">
          Please try again in a moment.
        </p>
      ) : page.items.length === 0 ? (
        <div className="grid justify-items-center gap-4 py-12 text-center">
          <p className="text-muted-foreground">You haven't purchased any leads yet.</p>
          <Button asChild>
            <Link to="/browse-gigs">Browse Available Gigs</Link>
          </Button>
        </div>
      ) : (
        <>
          <ul className="grid gap-6" aria-label="My leads">
            {page.items.map((lead) => (
              <li key={lead.id}>
                <LeadCard lead={lead} />
              </li>
            ))}
          </ul>
          <NextPageLink nextCursor={page.nextCursor} />
        </>
      )}
    </div>
  );
}
