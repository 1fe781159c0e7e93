import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { VisitBookedLine } from "#app/components/visit-booked-line.tsx";
import {
  DialogOnceOpened,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  focusBackOnClose,
} from "#app/components/ui/dialog.tsx";
import { Switch } from "#app/components/ui/switch.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import { GIG_FILLED_TEXTS, GIG_HIRED_TEXTS } from "#core/gig-texts.ts";
import { COMPARE_TEXTS } from "#core/quote-views.ts";
import type { OwnGig } from "#core/gig-types.ts";
import { budgetText } from "#core/money.ts";
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
 * their e-mail, 'Waiting for e-mail confirmation' instead (the page says what is left to do).
 * Closing a gig with purchases first asks whether it was filled (issue 19). While a hire holds it
 * off sale (issue 47) its status is 'Hired', and 'Keep it open for more diggers' puts it back.
 * `phone`: its phone's status, and 'Verify this number' (issue 49). Its next booked visit above its
 * description (issue 50).
 */
export function MyGigCard({ gig, phone, actions }: { gig: OwnGig; phone?: ReactNode; actions?: ReactNode }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  useFieldFocus(fetcher.data);
  // Show the requested state at once; the server's answer follows.
  const pending = fetcher.formData?.get("status");
  const status = typeof pending === "string" ? pending : gig.status;
  const open = status === "open";
  const filled = typeof pending === "string" ? pending === "closed" && fetcher.formData?.get("filled") === "yes" : gig.filled;
  const [asking, setAsking] = useState(false);
  // The filled question opens from the switch, and gives the focus back to it.
  const statusSwitch = useRef<HTMLButtonElement>(null);
  // Off sale because of a hire: the status says so rather than 'open' and 'Active'.
  const hiredOff = open && gig.hired && !gig.openForMore;
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
            {gig.published ? (
              <Badge variant={open ? "default" : "outline"}>{hiredOff ? GIG_HIRED_TEXTS.status : status}</Badge>
            ) : (
              <Badge variant="outline">{GIG_HIRED_TEXTS.unpublished}</Badge>
            )}
            {filled ? <Badge variant="secondary">{GIG_FILLED_TEXTS.badge}</Badge> : null}
            {gig.purchaseCount > 0 ? (
              <Badge variant="secondary">{`${gig.purchaseCount} ${gig.purchaseCount === 1 ? "purchase" : "purchases"}`}</Badge>
            ) : null}
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        {gig.hiddenReason ? (
          <p role="note" className="rounded-md border border-destructive/50 p-2 text-sm text-destructive [overflow-wrap:anywhere]">
            {`Hidden by an operator: diggers cannot see it or buy its lead. Reason: ${gig.hiddenReason}`}
          </p>
        ) : null}
        {/* The soonest visit booked in its threads, with the digger's handle (issue 50). */}
        {gig.visitBooked ? <VisitBookedLine text={gig.visitBooked} /> : null}
        <p className="line-clamp-2 text-sm text-muted-foreground">{gig.description}</p>
        {gig.hires.length > 0 ? <HiredDiggers gig={gig} offerKeepOpen={hiredOff} /> : null}
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
          <span className="text-muted-foreground">{gig.posted}</span>
        </p>
        {phone}
        <div className="flex flex-wrap items-center justify-between gap-3">
          {gig.published ? (
            <label className="flex items-center gap-2 text-sm font-medium">
              <Switch
                ref={statusSwitch}
                checked={open}
                aria-describedby={myGigTitleId(gig.id)}
                onCheckedChange={(checked) => {
                  if (checked) setStatus("open");
                  else if (gig.purchaseCount > 0) setAsking(true);
                  else setStatus("closed");
                }}
              />
              {hiredOff ? GIG_HIRED_TEXTS.status : open ? "Active" : "Closed"}
            </label>
          ) : null}
          {actions}
        </div>
        <DialogOnceOpened open={asking} onOpenChange={setAsking}>
          <DialogContent onCloseAutoFocus={(event) => focusBackOnClose(event, statusSwitch)}>
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
        </DialogOnceOpened>
      </CardContent>
    </Card>
  );
}

/**
 * 'Hired: {handle}' with Message (the thread with them), one line per hired digger; while the hire
 * holds the gig off sale, 'Keep it open for more diggers' (intent "keep-open") puts it back on sale.
 */
function HiredDiggers({ gig, offerKeepOpen }: { gig: OwnGig; offerKeepOpen: boolean }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  useFieldFocus(fetcher.data);
  const keeping = fetcher.state !== "idle";
  return (
    <div className="grid gap-2 rounded-md border p-3 text-sm">
      <ul className="grid gap-2" aria-label="Hired diggers">
        {gig.hires.map((hire) => (
          <li key={hire.handle} className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium [overflow-wrap:anywhere]">{GIG_HIRED_TEXTS.hiredLine(hire.handle)}</span>
            {hire.threadId ? (
              <Button asChild variant="outline" size="sm">
                <Link to={`/messages/${hire.threadId}`} aria-label={`Message ${hire.handle}`}>
                  Message
                </Link>
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {offerKeepOpen && !keeping ? (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="keep-open" />
          <input type="hidden" name="gigId" value={gig.id} />
          <Button type="submit" variant="outline" size="sm" aria-describedby={myGigTitleId(gig.id)}>
            {GIG_HIRED_TEXTS.keepOpen}
          </Button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}
