import { PageHeader } from "#app/components/page-header.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { EvidenceList, OtherGigs } from "#app/features/ops/evidence-list.tsx";
import { RowAction } from "#app/features/ops/row-action.tsx";
import { issueTypeLabel, refundCents, refundRateText } from "#core/lead-issues.ts";
import { formatPrice } from "#core/money.ts";
import { GUARANTEE_REFUNDS_PER_DIGGER, GUARANTEE_TEXTS, GUARANTEE_WAIT_HOURS, GUARANTEE_WINDOW_DAYS } from "#core/reply-guarantee.ts";
import { decideFakeRequest } from "#server/ops/decide-fake-request.ts";
import { decideGuarantee } from "#server/ops/decide-guarantee.ts";
import { decideOverdueIssue } from "#server/ops/decide-overdue-issue.ts";
import { retryRefund } from "#server/ops/retry-refund.ts";
import { paymentsPage } from "#server/ops/view-payments.ts";
import { serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.payments";

/** Payments: refunds still waiting for the provider, issues past their deadline, today's totals. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, paymentsPage);
}

/**
 * `intent=decide-issue`: Approve refund / Reject on an overdue issue awaiting an operator;
 * `intent=decide-fake-request`: Approve (take the gig down, refund every buyer) / Reject on a
 * Fake or Spam Request; `intent=decide-guarantee`: Approve / Reject a reply guarantee refund past
 * the digger's bound. Any other form (Retry sends no intent): one more `refund.send` job for a pending refund (the
 * provider never refunds twice).
 */
export async function action(args: Route.ActionArgs) {
  return serveIntents(args, { "decide-issue": decideOverdueIssue, "decide-fake-request": decideFakeRequest, "decide-guarantee": decideGuarantee, "*": retryRefund });
}

const REASONS = {
  issue_approved: "Issue approved",
  duplicate_payment: "Duplicate payment",
  lead_unavailable: "Lead no longer available",
  reply_guarantee: "Reply guarantee",
  gig_removed: "Gig taken down (fake request)",
} as const;

export default function OpsPayments({ loaderData }: Route.ComponentProps) {
  const { pendingRefunds, overdueIssues, awaitingOperator, guaranteeQueue, today } = loaderData;
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Payments"
        subtitle="Refunds the provider has not confirmed, lead issues past their deadline and those awaiting an operator, and today's money (UTC day)."
      />
      <section aria-labelledby="today-heading" className="grid gap-3 sm:grid-cols-2">
        <h2 id="today-heading" className="sr-only">
          Today
        </h2>
        <Card>
          <CardHeader>
            <CardTitle>Purchases today</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold">{formatPrice(today.purchases.cents)}</p>
            <p className="text-sm text-muted-foreground">{`${today.purchases.count} ${today.purchases.count === 1 ? "purchase" : "purchases"}`}</p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Refunds today</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold">{formatPrice(today.refunds.cents)}</p>
            <p className="text-sm text-muted-foreground">{`${today.refunds.count} ${today.refunds.count === 1 ? "refund" : "refunds"}`}</p>
          </CardContent>
        </Card>
      </section>
      <section aria-labelledby="refunds-heading" className="grid gap-3">
        <h2 id="refunds-heading" className="text-xl font-semibold">
          Refunds pending or failed
        </h2>
        {pendingRefunds.length === 0 ? (
          <p className="text-sm text-muted-foreground">Every refund is confirmed by the provider.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Refunds pending or failed">
            {pendingRefunds.map((refund) => (
              <li key={refund.id} className="grid gap-2 p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-start">
                <div className="grid min-w-0 gap-1">
                  <p className="font-semibold">{`${formatPrice(refund.amountCents)} to @${refund.diggerHandle}`}</p>
                  <p className="text-muted-foreground [overflow-wrap:anywhere]">{`${REASONS[refund.reason]} · "${refund.gigTitle}" · since ${refund.createdAtText}`}</p>
                  <p>{`${refund.lastError ? "Failed" : "Pending"} · ${refund.attempts} ${refund.attempts === 1 ? "attempt" : "attempts"}`}</p>
                  {refund.lastError ? <p className="text-destructive [overflow-wrap:anywhere]">{`Last error: ${refund.lastError}`}</p> : null}
                </div>
                <RowAction label="Retry" fields={{ refundId: refund.id }} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="awaiting-heading" className="grid gap-3">
        <h2 id="awaiting-heading" className="text-xl font-semibold">
          Overdue issues awaiting an operator
        </h2>
        <p className="text-sm text-muted-foreground">
          The client did not answer in time and the digger already had 2 automatic approvals in 30 days. Decide by the date shown: after it the issue is approved automatically.
          A Fake or Spam Request comes here at once, without asking the client, and is never approved automatically: approving it takes the gig down and refunds every buyer.
        </p>
        {awaitingOperator.length === 0 ? (
          <p className="text-sm text-muted-foreground">No overdue issue is awaiting an operator.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Overdue issues awaiting an operator">
            {awaitingOperator.map((issue) => (
              <li key={issue.id} className="grid gap-2 p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-start">
                <div className="grid min-w-0 gap-1">
                  <p className="font-semibold [overflow-wrap:anywhere]">{`@${issue.diggerHandle} on "${issue.gigTitle}"`}</p>
                  <p>{`${issueTypeLabel(issue.issueType)}: ${formatPrice(refundCents(issue.amountPaidCents, issue.refundPercentage))} (${issue.refundPercentage}% of ${formatPrice(issue.amountPaidCents)})`}</p>
                  <p className="text-muted-foreground [overflow-wrap:anywhere]">{issue.description}</p>
                  {issue.phoneVerifiedText ? <p className="font-medium">{issue.phoneVerifiedText}</p> : null}
                  <EvidenceList evidence={issue.evidence} />
                  <p>{refundRateText(issue.refundRate)}</p>
                  {issue.otherGigs ? (
                    <>
                      <p className="[overflow-wrap:anywhere]">{`Client: ${issue.clientName}`}</p>
                      <OtherGigs gigs={issue.otherGigs} />
                    </>
                  ) : (
                    <p className="text-muted-foreground">{`Client's deadline ${issue.respondByText}`}</p>
                  )}
                  <p className="font-medium">{`Decide by ${issue.operatorRespondByText}`}</p>
                </div>
                {issue.otherGigs ? (
                  <DecisionActions approve="Approve: take down, refund all" variant="destructive" fields={{ intent: "decide-fake-request", issueId: issue.id }} />
                ) : (
                  <DecisionActions approve="Approve refund" fields={{ intent: "decide-issue", issueId: issue.id }} />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="guarantee-heading" className="grid gap-3">
        <h2 id="guarantee-heading" className="text-xl font-semibold">
          {GUARANTEE_TEXTS.queueTitle}
        </h2>
        <p className="text-sm text-muted-foreground">
          {`The client did not open the thread within ${GUARANTEE_WAIT_HOURS} hours of the digger's first message, and the digger already had ${GUARANTEE_REFUNDS_PER_DIGGER} such refunds in ${GUARANTEE_WINDOW_DAYS} days. Oldest first.`}
        </p>
        {guaranteeQueue.length === 0 ? (
          <p className="text-sm text-muted-foreground">No reply guarantee refund is waiting for an operator.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label={GUARANTEE_TEXTS.queueTitle}>
            {guaranteeQueue.map((purchase) => (
              <li key={purchase.purchaseId} className="grid gap-2 p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-start">
                <div className="grid min-w-0 gap-1">
                  <p className="font-semibold [overflow-wrap:anywhere]">{`@${purchase.diggerHandle} on "${purchase.gigTitle}"`}</p>
                  <p className="[overflow-wrap:anywhere]">{`${formatPrice(purchase.amountPaidCents)} paid · client ${purchase.clientName}`}</p>
                  <EvidenceList evidence={purchase.evidence} />
                </div>
                <DecisionActions approve="Approve refund" fields={{ intent: "decide-guarantee", purchaseId: purchase.purchaseId }} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="issues-heading" className="grid gap-3">
        <h2 id="issues-heading" className="text-xl font-semibold">
          Lead issues past their deadline
        </h2>
        {overdueIssues.length === 0 ? (
          <p className="text-sm text-muted-foreground">No lead issue is past its deadline.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Lead issues past their deadline">
            {overdueIssues.map((issue) => (
              <li key={issue.id} className="p-3 text-sm [overflow-wrap:anywhere]">
                {`@${issue.diggerHandle} on "${issue.gigTitle}": ${issue.refundPercentage}% asked, deadline ${issue.respondByText}. The auto-approval job settles it within 10 minutes (or sends it to the operators, above).`}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** An operator's Approve and Reject of one queued decision: the same form fields, `decision` added. */
function DecisionActions({ approve, variant = "default", fields }: { approve: string; variant?: "default" | "destructive"; fields: Record<string, string> }) {
  return (
    <div className="flex flex-wrap gap-2 sm:flex-col">
      <RowAction label={approve} variant={variant} fields={{ ...fields, decision: "approve" }} />
      <RowAction label="Reject" fields={{ ...fields, decision: "reject" }} />
    </div>
  );
}
