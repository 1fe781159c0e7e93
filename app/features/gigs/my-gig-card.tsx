import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "#app/components/ui/alert.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { Switch } from "#app/components/ui/switch.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import { GIG_FILLED_TEXTS } from "#core/gig-texts.ts";
import { COMPARE_TEXTS } from "#core/quote-views.ts";
import type { OwnGig } from "#core/gig-types.ts";
import { budgetText } from "#core/money.ts";
import { timeAgo } from "#core/relative-time.ts";
import type { ReactNode } from "react";

/**
 * The id of a card's title on /my-gigs: the card's controls have short names of their own
 * ('Edit', 'Delete', 'Active') and the title as their accessible description.
 */
export function myGigTitleId(gigId: string): string {
  return `my-gig-${gigId}-title`;
}

/**
 * One of my gigs: status, purchases, and the Active/Closed switch; until the client confirms
 * their e-mail (`published` false), the reason it is not public and a way to resend the link.
 * Closing a gig with purchases first asks whether it was filled (issue 19).
 */
export function MyGigCard({ gig, now, published, actions }: { gig: OwnGig; now: Date; published: boolean; actions?: ReactNode }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  useFieldFocus(fetcher.data);
  // Show the requested state at once; the server's answer follows.
  const pending = fetcher.formData?.get("status");
  const status = typeof pending === "string" ? pending : gig.status;
  const open = status === "open";
  const filled = typeof pending === "string" ? pending === "closed" && fetcher.formData?.get("filled") === "yes" : gig.filled;
  const [asking, setAsking] = useState(false);
  const setStatus = (next: "open" | "closed", filledAnswer?: "yes" | "no") => {
    setAsking(false);
    fetcher.submit(
      { intent: "set-status", gigId: gig.id, status: next, ...(filledAnswer ? { filled: filledAnswer } : {}) },
      { method: "post" },
    );
  };
  return (
    <Card className="gap-3">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <CardTitle className="text-lg">
            <Link id={myGigTitleId(gig.id)} to={`/gig/${gig.id}`} className="hover:underline">
              {gig.title}
            </Link>
          </CardTitle>
          <div className="flex flex-wrap gap-2">
            <Badge variant={open ? "default" : "outline"}>{status}</Badge>
            {filled ? <Badge variant="secondary">{GIG_FILLED_TEXTS.badge}</Badge> : null}
            {gig.purchaseCount > 0 ? (
              <Badge variant="secondary">{`${gig.purchaseCount} ${gig.purchaseCount === 1 ? "purchase" : "purchases"}`}</Badge>
            ) : null}
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        {published ? null : <ConfirmEmailNotice />}
        {gig.hiddenReason ? (
          <p role="note" className="rounded-md border border-destructive/50 p-2 text-sm text-destructive [overflow-wrap:anywhere]">
            {`Hidden by an operator: diggers cannot see it or buy its lead. Reason: ${gig.hiddenReason}`}
          </p>
        ) : null}
        <p className="line-clamp-2 text-sm text-muted-foreground">{gig.description}</p>
        {gig.openQuotes > 0 ? (
          <p>
            <Link to={`/my-gigs/${gig.id}/quotes`} aria-describedby={myGigTitleId(gig.id)} className="text-sm font-medium text-primary-strong underline-offset-2 hover:underline">
              {COMPARE_TEXTS.link(gig.openQuotes)}
            </Link>
          </p>
        ) : null}
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <span>{gig.categoryName}</span>
          <span className="font-medium">{budgetText(gig.budgetMinCents, gig.budgetMaxCents)}</span>
          <span className="text-muted-foreground">{`Posted ${timeAgo(gig.createdAt, now)}`}</span>
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <label className="flex items-center gap-2 text-sm font-medium">
            <Switch
              checked={open}
              aria-describedby={myGigTitleId(gig.id)}
              onCheckedChange={(checked) => {
                if (checked) setStatus("open");
                else if (gig.purchaseCount > 0) setAsking(true);
                else setStatus("closed");
              }}
            />
            {open ? "Active" : "Closed"}
          </label>
          {actions}
        </div>
        <Dialog open={asking} onOpenChange={setAsking}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>{GIG_FILLED_TEXTS.title}</DialogTitle>
              <DialogDescription>{GIG_FILLED_TEXTS.description}</DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setStatus("closed", "no")}>
                {GIG_FILLED_TEXTS.no}
              </Button>
              <Button type="button" onClick={() => setStatus("closed", "yes")}>
                {GIG_FILLED_TEXTS.yes}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}

function ConfirmEmailNotice() {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  useFieldFocus(fetcher.data);
  return (
    <Alert role="status">
      <AlertTitle>Confirm your e-mail to publish this gig</AlertTitle>
      <AlertDescription>
        <p>Diggers see it once you open the link in the e-mail we sent you.</p>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="resend-confirmation" />
          <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
            {fetcher.state === "idle" ? "Resend confirmation e-mail" : "Sending..."}
          </Button>
        </fetcher.Form>
      </AlertDescription>
    </Alert>
  );
}
