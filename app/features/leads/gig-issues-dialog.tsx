import { useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  DialogOnceOpened,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import { useLoadedDialog, type LoadRequests } from "#app/lib/use-loaded-dialog.ts";
import { LoadedDialogButton } from "#app/components/loaded-dialog-button.tsx";
import {
  ISSUE_MESSAGES,
  issueStatusBadge,
  issueStatusLabel,
  issueTypeLabel,
  refundCents,
  type GigIssue,
} from "#core/lead-issues.ts";
import { formatPrice } from "#core/money.ts";

/** The Refund Amount line: amount_paid x refund_percentage / 100, e.g. "$25.00 (50%)". */
function refundText(amountPaidCents: number, refundPercentage: number): string {
  return `${formatPrice(refundCents(amountPaidCents, refundPercentage))} (${refundPercentage}%)`;
}

/**
 * View Issues on a card of /my-gigs: loads the gig's issues from its resource route, then
 * opens the dialog, or says 'Failed to load issues' and stays closed. After an approval or
 * a rejection React Router reloads the fetcher's data, so the list shows the new status.
 */
export function GigIssuesButton({ gigId, gigTitle }: { gigId: string; gigTitle: string }) {
  return <LoadedDialogButton label="View Issues" dialog={(requests) => <GigIssuesDialog gigId={gigId} gigTitle={gigTitle} requests={requests} />} />;
}

function GigIssuesDialog({ gigId, gigTitle, requests }: { gigId: string; gigTitle: string; requests: LoadRequests }) {
  const url = `/my-gigs/${gigId}/issues`;
  const { data, open, setOpen } = useLoadedDialog<{ issues: GigIssue[] }>(url, "issues", ISSUE_MESSAGES.loadIssuesFailed, requests);
  return (
    <DialogOnceOpened open={open} onOpenChange={setOpen}>
      <DialogContent showCloseButton={false} className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{`Lead Issues for "${gigTitle}"`}</DialogTitle>
          <DialogDescription>Review and resolve reported issues from diggers</DialogDescription>
        </DialogHeader>
        {data && data.issues.length > 0 ? (
          <ul className="grid gap-4" aria-label="Reported issues">
            {data.issues.map((issue) => (
              <IssueItem key={issue.id} issue={issue} action={url} />
            ))}
          </ul>
        ) : (
          <p className="py-6 text-center text-muted-foreground">No issues reported for this gig</p>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </DialogOnceOpened>
  );
}

function IssueItem({ issue, action }: { issue: GigIssue; action: string }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  useFieldFocus(fetcher.data);
  const busy = fetcher.state !== "idle";
  const label = issueTypeLabel(issue.issueType);
  return (
    <li className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold">{label}</h3>
          <p className="text-sm text-muted-foreground">{`From: ${issue.diggerBusinessName} (@${issue.diggerHandle})`}</p>
        </div>
        <Badge variant={issueStatusBadge(issue.status)}>{issueStatusLabel(issue.status, issue.decidedBy)}</Badge>
      </div>
      <p className="whitespace-pre-line text-sm">{issue.description}</p>
      {issue.phoneVerifiedText ? <p className="text-sm font-medium">{issue.phoneVerifiedText}</p> : null}
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Amount Paid</dt>
          <dd className="font-medium">{formatPrice(issue.amountPaidCents)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Refund Amount</dt>
          <dd className="font-medium">{refundText(issue.amountPaidCents, issue.refundPercentage)}</dd>
        </div>
      </dl>
      {issue.evidence ? (
        // What the thread shows (issue 48), beside the decision.
        <ul className="grid gap-0.5 rounded-md bg-muted/40 p-2 text-sm" aria-label="What the thread shows">
          <li>{issue.evidence.opened}</li>
          <li>{issue.evidence.messages}</li>
          <li>{issue.evidence.firstMessage}</li>
        </ul>
      ) : null}
      <p className="text-xs text-muted-foreground">{issue.reportedText}</p>
      {issue.status !== "pending" ? null : issue.operatorRespondBy ? (
        // Past its deadline the client's answer no longer decides it (decision 0031).
        <p className="text-sm font-medium">{issue.withOperatorsText}</p>
      ) : (
        <>
          <p className="text-sm">
            <span className="font-medium">{issue.respondByText}</span>
            <span className="text-muted-foreground"> — not answered by then, the refund is approved automatically.</span>
          </p>
          <DecisionForm fetcher={fetcher} issue={issue} action={action} busy={busy} />
        </>
      )}
    </li>
  );
}

/**
 * Approve Refund and Reject, each asking for a confirmation that names the amount first: money
 * moves on the answer, and a mis-tap in a list of issues should not decide one.
 */
function DecisionForm({
  fetcher,
  issue,
  action,
  busy,
}: {
  fetcher: ReturnType<typeof useFetcher<{ error?: string; success?: string }>>;
  issue: GigIssue;
  action: string;
  busy: boolean;
}) {
  const [asking, setAsking] = useState<"approve" | "reject" | null>(null);
  const amount = formatPrice(refundCents(issue.amountPaidCents, issue.refundPercentage));
  if (asking === null) {
    return (
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" disabled={busy} onClick={() => setAsking("approve")}>
          Approve Refund
        </Button>
        <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => setAsking("reject")}>
          Reject
        </Button>
      </div>
    );
  }
  const question =
    asking === "approve"
      ? `Refund ${amount} to @${issue.diggerHandle}? The money goes back to their card.`
      : `Reject this report? @${issue.diggerHandle} gets no refund of ${amount}.`;
  return (
    <fetcher.Form method="post" action={action} className="grid gap-2 rounded-md border bg-muted/40 p-3" role="group" aria-label="Confirm decision">
      <p className="text-sm font-medium">{question}</p>
      <input type="hidden" name="issueId" value={issue.id} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" name="decision" value={asking} variant={asking === "approve" ? "default" : "destructive"} disabled={busy}>
          {asking === "approve" ? `Yes, refund ${amount}` : "Yes, reject"}
        </Button>
        <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => setAsking(null)}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}
