import { useId, useState } from "react";
import type { FetcherWithComponents } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { StarRatingInput } from "#app/components/star-rating-input.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import { useCloseOnSuccess } from "#app/lib/use-loaded-dialog.ts";
import { REVIEW_MAX, reviewSchema, textLength } from "#core/reviews.ts";

/**
 * Leave a Review (or Edit Review: within 30 days, or while the hire's blind review is not yet
 * shown, issue 51, when the dialog repeats when it will be): a radio group named Rating ('1 star' to
 * '5 stars') and Your review (20 to 2000 characters, counted as typed), checked here for speed
 * and again on the server; each field says what is wrong beside it. Closes once the server
 * took it. The fetcher belongs to the row, which stays mounted when Leave a Review gives way to
 * Edit Review.
 */
export function ReviewDialog({
  action,
  diggerId,
  handle,
  gigTitle,
  review,
  fetcher,
}: {
  fetcher: FetcherWithComponents<{ error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined>;
  action: string;
  diggerId: string;
  handle: string;
  gigTitle: string;
  review: { rating: number; body: string; waitingText?: string | null } | null;
}) {
  const [open, setOpen] = useState(false);
  const [rating, setRating] = useState(review ? String(review.rating) : "");
  const [body, setBody] = useState(review?.body ?? "");
  const id = useId();
  const busy = fetcher.state !== "idle";
  const { errors, check } = useBrowserCheck(fetcher.data);

  useCloseOnSuccess(fetcher.data, () => setOpen(false));

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          {review ? "Edit Review" : "Leave a Review"}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{review ? `Edit your review of ${handle}` : `Review ${handle}`}</DialogTitle>
          <DialogDescription>{`How did ${handle} do on "${gigTitle}"? Your first name and last initial are shown with your review.`}</DialogDescription>
          {review?.waitingText ? <p className="text-sm text-muted-foreground">{review.waitingText}</p> : null}
        </DialogHeader>
        <fetcher.Form
          method="post"
          action={action}
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            check(event, reviewSchema.safeParse({ rating: rating || undefined, body }));
          }}
        >
          <input type="hidden" name="intent" value={review ? "edit-review" : "review"} />
          <input type="hidden" name="diggerId" value={diggerId} />
          <StarRatingInput id={id} value={rating} onChange={setRating} error={errors.rating} />
          <FormField id={`${id}-body`} label="Your review" required hint={`${textLength(body)}/${REVIEW_MAX} characters (at least 20)`} error={errors.body}>
            <Textarea
              {...fieldControlProps(`${id}-body`, { required: true, hintId: `${id}-body-hint`, error: errors.body })}
              name="body"
              rows={6}
              maxLength={REVIEW_MAX}
              value={body}
              onChange={(event) => setBody(event.target.value)}
              placeholder="What was the job, and how did it go?"
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Submitting..." : "Submit Review"}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
