import { useEffect } from "react";
import { isRouteErrorResponse } from "react-router";
import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { RenderSegment } from "#app/components/render-segment.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ClientReviewCardEntry } from "#app/features/client-reviews/client-review-dialog.tsx";
import { LeadCard } from "#app/features/leads/lead-card.tsx";
import { LeadLedgerSummary } from "#app/features/leads/lead-ledger.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { cn } from "#app/lib/cn.ts";
import { ISSUE_MESSAGES, LEAD_STATE_LABELS, LEAD_STATES, type LeadState } from "#core/lead-issues.ts";
import { myLeads } from "#server/leads/my-leads.ts";
import { reportLeadIssue } from "#server/leads/report-issue.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/my-leads";
import { toastError } from "#app/lib/toasts.ts";

export const meta = () => pageMeta("My Leads", "The leads you have purchased, with the clients' contact details.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, myLeads);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, reportLeadIssue);
}

export default function MyLeads({ loaderData }: Route.ComponentProps) {
  const { cards, nextCursor, ledger, state } = loaderData;
  return (
    <div>
      <PageHeader title="My Leads" subtitle="Your purchased leads and the clients' contact details" />
      <LeadLedgerSummary ledger={ledger} />
      {cards.length > 0 || state ? <LeadStateFilter current={state} /> : null}
      {cards.length === 0 && state ? (
        <p role="status" className="py-12 text-center text-muted-foreground">{`No leads in '${LEAD_STATE_LABELS[state]}'.`}</p>
      ) : cards.length === 0 ? (
        <div className="grid justify-items-center gap-4 py-12 text-center">
          <p className="text-muted-foreground">You haven't purchased any leads yet.</p>
          <Button asChild>
            <Link to="/browse-gigs">Browse Available Gigs</Link>
          </Button>
        </div>
      ) : (
        <>
          <ul className="grid gap-6" aria-label="My leads">
            {cards.map((card) => (
              <li key={card.lead.id}>
                <RenderSegment>
                  <LeadCard
                    lead={card.lead}
                    times={card.times}
                    guarantee={card.guarantee}
                    phoneStatus={card.phoneStatus}
                    review={card.review ? <ClientReviewCardEntry entry={card.review} /> : null}
                  />
                </RenderSegment>
              </li>
            ))}
          </ul>
          <NextPageLink nextCursor={nextCursor} />
        </>
      )}
    </div>
  );
}

/** The states' filter (issue 47): plain links, so it works before the JavaScript arrives; 'All' first. */
function LeadStateFilter({ current }: { current: LeadState | null }) {
  const choices: Array<{ label: string; to: string; on: boolean }> = [
    { label: "All", to: "/my-leads", on: current === null },
    ...LEAD_STATES.map((state) => ({ label: LEAD_STATE_LABELS[state], to: `/my-leads?state=${state}`, on: current === state })),
  ];
  return (
    <nav aria-label="Filter leads by state" className="mb-6">
      <ul className="flex flex-wrap gap-2">
        {choices.map((choice) => (
          <li key={choice.label}>
            <Link
              to={choice.to}
              aria-current={choice.on ? "page" : undefined}
              className={cn(
                "inline-flex min-h-9 items-center rounded-full border px-3 text-sm font-medium",
                choice.on ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-muted",
              )}
            >
              {choice.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * 'Failed to load leads' is a toast (spec section 8), and the page says no more than that. A
 * fault (the database away: 503) carries no message of ours: then both say the spec's.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = (isRouteErrorResponse(error) ? (error.data as { error?: string } | null)?.error : undefined) ?? ISSUE_MESSAGES.loadLeadsFailed;
  useEffect(() => {
    if (message) toastError(message);
  }, [message]);
  return (
    <div>
      <PageHeader title="My Leads" subtitle="Your purchased leads and the clients' contact details" />
      <p role="status" className="py-12 text-center text-muted-foreground">
        {message}
        <br />
        Please try again in a moment.
      </p>
    </div>
  );
}
