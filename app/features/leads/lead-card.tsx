import { Link, useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import { formatDate } from "#core/dates.ts";
import { GIG_FILLED_TEXTS } from "#core/gig-texts.ts";
import { issueStatusLabel, refundStateText, reportWindowClosedText, respondByText, type MyLead } from "#core/lead-issues.ts";
import { budgetText, formatPrice } from "#core/money.ts";
import { ClientContact } from "./client-contact.tsx";
import { ReportIssueDialog, type ReportFetcher } from "./report-issue-dialog.tsx";

/** A purchased lead: the gig ('Filled' once the client hired someone), the client's contact details, Send Email and Report Issue. */
export function LeadCard({ lead }: { lead: MyLead }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>() as ReportFetcher;
  useFieldFocus(fetcher.data);
  const { gig, client } = lead;
  const refundState = refundStateText(lead.issue?.status ?? null, lead.refund);
  return (
    <Card className="gap-4">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <CardTitle className="text-lg">
            <h2>{gig.title}</h2>
          </CardTitle>
          {gig.filled ? <Badge variant="secondary">{GIG_FILLED_TEXTS.badge}</Badge> : null}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="whitespace-pre-line text-sm text-muted-foreground">{gig.description}</p>
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <Item label="Budget" value={budgetText(gig.budgetMinCents, gig.budgetMaxCents)} />
          <Item label="Location" value={gig.location} />
          <Item label="Timeline" value={gig.timeline} />
        </dl>
        <ClientContact
          client={{ name: client.name, email: client.email, deleted: client.deleted, phone: gig.contactPhone, contactPreferences: gig.contactPreferences }}
          gigTitle={gig.title}
        />
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <Item label="Amount Paid" value={formatPrice(lead.amountPaidCents)} />
          <Item label="Purchase Date" value={formatDate(lead.purchasedAt)} />
          {refundState ? <Item label="Refund" value={refundState} /> : null}
        </dl>
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
          ) : lead.reportClosed ? (
            <Button variant="outline" disabled>
              {reportWindowClosedText(lead.reportClosesAt)}
            </Button>
          ) : (
            <ReportIssueDialog purchaseId={lead.id} gigTitle={gig.title} fetcher={fetcher} />
          )}
        </div>
        {lead.issue?.status === "pending" ? (
          // The client's deadline: not answered by then, the issue is approved automatically.
          <p className="text-sm text-muted-foreground">
            <span className="font-medium text-foreground">{respondByText(lead.issue.respondBy)}</span>
            {" (the client's deadline; after it your refund is approved automatically)"}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{value}</dd>
    </div>
  );
}
