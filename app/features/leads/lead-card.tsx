import type { ReactNode } from "react";
import { fact } from "#app/components/fact-list.tsx";
import { Link } from "#app/components/link.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { VisitBookedLine } from "#app/components/visit-booked-line.tsx";
import { cn } from "#app/lib/cn.ts";
import { isLiveLead, issueStatusLabel, LEAD_STATE_LABELS, refundStateText, type LeadCardLead, type MyLeadTimes } from "#core/lead-issues.ts";
import type { LeadGuaranteeTexts } from "#core/lead-guarantee.ts";
import { budgetText, formatPrice } from "#core/money.ts";
import type { PhoneStatus } from "#core/phone-verification.ts";
import { ClientContact } from "./client-contact.tsx";
import { ReportIssueDialog } from "./report-issue-dialog.tsx";

/**
 * A purchased lead: where it stands ('Active', 'Hired', 'Not chosen', 'Gig filled', 'Refund
 * pending', 'Refunded'; a lead no longer in play is set apart: dashed and muted), the gig, the
 * client's contact details, the reply guarantee's line and the thread's evidence (issue 48),
 * Message, Send Email and Report Issue. Beside the number, whether the client verified it (issue 49);
 * above the gig, its thread's next booked visit (issue 50). `review`: the digger's review of the
 * client (issue 51: app/features/client-reviews/, composed by the route), under the actions.
 */
export function LeadCard({
  lead,
  times,
  guarantee,
  phoneStatus,
  review,
}: {
  lead: LeadCardLead;
  times: MyLeadTimes;
  guarantee: LeadGuaranteeTexts;
  phoneStatus: PhoneStatus | null;
  review?: ReactNode;
}) {
  const { gig, client } = lead;
  const refundState = refundStateText(lead.issue?.status ?? null, lead.refund);
  const live = isLiveLead(lead.state);
  return (
    <Card className={cn("gap-4", live ? null : "border-dashed bg-muted/40 shadow-none")} data-lead-state={lead.state}>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <CardTitle className="text-lg">
            <h2>{gig.title}</h2>
          </CardTitle>
          <Badge variant={lead.state === "active" ? "default" : live ? "secondary" : "outline"}>{LEAD_STATE_LABELS[lead.state]}</Badge>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {/* The thread's next visit, booked (issue 50). */}
        {times.visitBooked ? <VisitBookedLine text={times.visitBooked} /> : null}
        <p className="whitespace-pre-line text-sm text-muted-foreground">{gig.description}</p>
        <dl className="facts grid gap-3 text-sm sm:grid-cols-3">
          {fact("Budget", budgetText(gig.budgetMinCents, gig.budgetMaxCents))}
          {fact("Location", gig.location)}
          {fact("Timeline", gig.timeline)}
        </dl>
        <ClientContact
          client={{ name: client.name, email: client.email, deleted: client.deleted, phone: gig.contactPhone, contactPreferences: gig.contactPreferences }}
          gigTitle={gig.title}
          phoneStatus={phoneStatus}
        />
        <dl className="facts grid gap-3 text-sm sm:grid-cols-3">
          {fact("Amount Paid", formatPrice(lead.amountPaidCents))}
          {fact("Purchase Date", times.purchased)}
          {refundState ? fact("Refund", refundState) : null}
        </dl>
        {guarantee.line || guarantee.evidence ? (
          // The reply guarantee (issue 48): where this purchase stands, and what its thread shows.
          <div className="grid gap-1 rounded-md border bg-muted/30 px-3 py-2 text-sm" data-reply-guarantee>
            {guarantee.line ? <p className="font-medium">{guarantee.line}</p> : null}
            {guarantee.evidence ? <p className="text-muted-foreground">{guarantee.evidence}</p> : null}
          </div>
        ) : null}
        <div className="flex flex-wrap gap-3">
          {lead.threadId ? (
            <Button asChild variant="outline">
              <Link to={`/messages/${lead.threadId}`}>Message</Link>
            </Button>
          ) : null}
          {lead.issue ? (
            <Button variant="outline" disabled>
              {issueStatusLabel(lead.issue.status, lead.issue.decidedBy)}
            </Button>
          ) : times.reportClosed ? (
            <Button variant="outline" disabled>
              {times.reportClosed}
            </Button>
          ) : (
            <ReportIssueDialog
              purchaseId={lead.id}
              gigTitle={gig.title}
              hasPhone={Boolean(gig.contactPhone?.trim())}
              phoneVerifiedOn={times.phoneVerifiedOn}
            />
          )}
        </div>
        {review}
        {times.decideBy ? (
          // The client's deadline: not answered by then, the issue is approved automatically.
          <p className="text-sm text-muted-foreground">
            <span className="font-medium text-foreground">{times.decideBy}</span>
            {" (after it your refund is approved automatically)"}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
