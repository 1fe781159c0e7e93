import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { DiggerAvatar } from "#app/components/digger-avatar.tsx";
import { Rating, Stars } from "#app/components/rating.tsx";
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
import { displayHandle } from "#core/digger-display.ts";
import { TRUST_MESSAGES, type GigBuyer } from "#core/reviews.ts";
import { TWO_WAY_TEXTS } from "#core/two-way-reviews.ts";
import { ReviewDialog } from "./review-dialog.tsx";

type TrustFetcherData = { error?: string; success?: string } | undefined;

/**
 * Diggers on a card of /my-gigs with purchases: loads who bought the gig's lead from its
 * resource route, then opens the dialog (or says 'Failed to load diggers'). Each row: the
 * digger, their rating and purchase date, Mark as Hired (or Remove Hire) and Leave a Review
 * (or Edit Review while it may be edited; a review of a hire waits, blind, with the day it will be
 * shown, issue 51). After each action React Router reloads the fetcher's data.
 */
export function GigDiggersButton({ gigId, gigTitle }: { gigId: string; gigTitle: string }) {
  return <LoadedDialogButton label="Diggers" dialog={(requests) => <GigDiggersDialog gigId={gigId} gigTitle={gigTitle} requests={requests} />} />;
}

function GigDiggersDialog({ gigId, gigTitle, requests }: { gigId: string; gigTitle: string; requests: LoadRequests }) {
  const url = `/my-gigs/${gigId}/diggers`;
  const { data, open, setOpen } = useLoadedDialog<{ buyers: GigBuyer[] }>(url, "buyers", TRUST_MESSAGES.loadFailed, requests);
  return (
    <DialogOnceOpened open={open} onOpenChange={setOpen}>
      <DialogContent showCloseButton={false} className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{`Diggers who bought "${gigTitle}"`}</DialogTitle>
          <DialogDescription>Mark the diggers you hired and review their work. Only you see this list.</DialogDescription>
        </DialogHeader>
        {data && data.buyers.length > 0 ? (
          <ul className="grid gap-3" aria-label="Diggers who bought this lead">
            {data.buyers.map((buyer) => (
              <BuyerRow key={buyer.diggerId} buyer={buyer} action={url} gigTitle={gigTitle} />
            ))}
          </ul>
        ) : (
          <p className="py-6 text-center text-muted-foreground">No digger has bought this lead yet.</p>
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

function BuyerRow({ buyer, action, gigTitle }: { buyer: GigBuyer; action: string; gigTitle: string }) {
  const fetcher = useFetcher<TrustFetcherData>();
  useFieldFocus(fetcher.data);
  const reviewFetcher = useFetcher<TrustFetcherData>();
  useFieldFocus(reviewFetcher.data);
  const busy = fetcher.state !== "idle";
  const handle = displayHandle(buyer.handle);
  // Show the requested state at once; the reload follows.
  const pendingIntent = fetcher.formData?.get("intent");
  const hired = pendingIntent === "hire" ? true : pendingIntent === "unhire" ? false : buyer.hired;
  return (
    <li className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[auto_1fr] sm:items-start">
      <DiggerAvatar handle={buyer.handle} imageUrl={buyer.profileImageUrl} className="size-12" />
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Link to={`/digger/${buyer.diggerId}`} className="font-semibold underline-offset-4 [overflow-wrap:anywhere] hover:underline">
            {handle}
          </Link>
          {hired ? <Badge>Hired</Badge> : null}
          {buyer.threadId ? (
            <Link to={`/messages/${buyer.threadId}`} className="text-sm font-medium text-primary-strong underline-offset-4 hover:underline">
              Message
            </Link>
          ) : null}
        </div>
        <Rating rating={buyer.averageRating} count={buyer.totalRatings} />
        <p className="text-sm text-muted-foreground">{`Bought ${buyer.purchasedAtText}`}</p>
        {buyer.review ? (
          <div className="grid gap-1 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <span>Your review:</span>
              <Stars rating={buyer.review.rating} />
            </p>
            {/* Blind in the hire's window (issue 51): when it will be shown; once shown, why there is no Edit. */}
            {buyer.review.waitingText ? (
              <p className="text-muted-foreground">{buyer.review.waitingText}</p>
            ) : buyer.review.published && !buyer.review.editable && buyer.reviewable ? (
              <p className="text-muted-foreground">{TWO_WAY_TEXTS.locked}</p>
            ) : null}
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {/* A lead refunded in full cannot be marked hired (a hire made before stays removable). */}
          {hired || buyer.reviewable ? (
            <fetcher.Form method="post" action={action}>
              <input type="hidden" name="diggerId" value={buyer.diggerId} />
              <Button type="submit" size="sm" variant={hired ? "outline" : "default"} name="intent" value={hired ? "unhire" : "hire"} disabled={busy}>
                {hired ? "Remove Hire" : "Mark as Hired"}
              </Button>
            </fetcher.Form>
          ) : null}
          {buyer.review ? (
            buyer.review.editable && buyer.reviewable ? (
              <ReviewDialog fetcher={reviewFetcher} action={action} diggerId={buyer.diggerId} handle={handle} gigTitle={gigTitle} review={buyer.review} />
            ) : null
          ) : buyer.reviewable ? (
            <ReviewDialog fetcher={reviewFetcher} action={action} diggerId={buyer.diggerId} handle={handle} gigTitle={gigTitle} review={null} />
          ) : (
            <p className="self-center text-sm text-muted-foreground">Refunded in full: no review</p>
          )}
        </div>
      </div>
    </li>
  );
}
