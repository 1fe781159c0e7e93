import { useId, useState } from "react";
import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { ReviewReportForm, type ReportState } from "#app/components/review-report-form.tsx";
import { Stars } from "#app/components/rating.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck, useFieldFocus, useSchemas } from "#app/lib/use-action-toast.ts";
import { formatRating } from "#core/digger-display.ts";
import { formatCount } from "#core/money.ts";
import { REPLY_MAX, starLabel, textLength, TRUST_MESSAGES } from "#core/review-texts.ts";
import type { PublicReview, ReviewSummary } from "#core/reviews.ts";

/**
 * The Reviews section of /digger/{id}: count, average with one decimal, breakdown by star, then
 * the reviews newest first (10 a page), each from a client whose lead the digger bought
 * ('Verified lead'), 'Hired' when that client marked the digger hired, and the digger's reply.
 * The digger sees Reply under each review not yet answered on their own profile; every
 * signed-in user sees a Report link (issue 22), which opens a form asking for a reason that
 * goes to the operators.
 */
/** A review with its time as the server wrote it, in the reader's zone (issue 47). */
type ShownReview = PublicReview & { createdAtText: string; createdAtTitle: string };


export function ReviewsSection({
  summary,
  page,
  handle,
  isOwner,
  signedIn,
  report,
  firstPage,
}: {
  summary: ReviewSummary;
  page: { items: ShownReview[]; nextCursor: string | null };
  handle: string;
  isOwner: boolean;
  signedIn: boolean;
  report: ReportState;
  firstPage: boolean;
}) {
  // Only withdrawn reviews (the digger's own view) still leave the profile with none that count.
  if (summary.count === 0 && page.items.length === 0) return <p className="text-muted-foreground">No reviews yet.</p>;
  return (
    <div className="grid gap-6">
      {summary.count === 0 ? (
        <p className="text-muted-foreground">No reviews yet.</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-center sm:gap-8">
          <div className="grid justify-items-start gap-1">
            <p className="text-4xl font-bold">
              {formatRating(summary.average)}
              <span className="sr-only"> out of 5</span>
            </p>
            <Stars rating={Math.round(summary.average)} />
            <p className="text-sm text-muted-foreground">{`${formatCount(summary.count)} ${summary.count === 1 ? "review" : "reviews"}`}</p>
          </div>
          <ul aria-label="Ratings by star" className="grid gap-1.5 text-sm">
            {summary.breakdown.map(({ stars, count }) => (
              <li key={stars} className="grid grid-cols-[4rem_1fr_2.5rem] items-center gap-2">
                <span>{starLabel(stars)}</span>
                <span aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-muted">
                  <span className="block h-full rounded-full bg-primary" style={{ width: `${(count / summary.count) * 100}%` }} />
                </span>
                <span className="text-right tabular-nums text-muted-foreground">{count}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul aria-label="Reviews" className="grid gap-4">
        {page.items.map((review) => (
          <ReviewItem key={review.id} review={review} handle={handle} isOwner={isOwner} signedIn={signedIn} report={report} />
        ))}
      </ul>
      <div className="flex flex-wrap justify-center gap-2">
        {firstPage ? null : (
          <Button asChild variant="ghost">
            <Link to="?" preventScrollReset={false}>
              Newest reviews
            </Link>
          </Button>
        )}
      </div>
      <NextPageLink nextCursor={page.nextCursor} label="More reviews" />
    </div>
  );
}

function ReviewItem({
  review,
  handle,
  isOwner,
  signedIn,
  report,
}: {
  review: ShownReview;
  handle: string;
  isOwner: boolean;
  signedIn: boolean;
  report: ReportState;
}) {
  return (
    <li id={`review-${review.id}`} className="grid scroll-mt-20 gap-2 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center gap-2">
        <Stars rating={review.rating} />
        <span className="font-medium">{review.reviewer}</span>
        <time dateTime={review.createdAt} title={review.createdAtTitle} className="text-sm text-muted-foreground">
          {review.createdAtText}
        </time>
      </div>
      <div className="flex flex-wrap gap-2">
        {review.withdrawn ? (
          <Badge variant="destructive">{TRUST_MESSAGES.withdrawn}</Badge>
        ) : (
          <>
            <Badge variant="outline">Verified lead</Badge>
            {review.hired ? <Badge variant="secondary">Hired</Badge> : null}
          </>
        )}
      </div>
      <p className="whitespace-pre-line [overflow-wrap:anywhere]">{review.body}</p>
      {review.reply ? (
        <div className="ml-4 grid gap-1 border-l-2 pl-4">
          <p className="text-sm font-medium">{`Response from ${handle}`}</p>
          <p className="whitespace-pre-line text-sm [overflow-wrap:anywhere]">{review.reply}</p>
        </div>
      ) : isOwner && !review.withdrawn ? (
        <ReplyForm reviewId={review.id} />
      ) : null}
      {signedIn ? (
        <ReviewReportForm
          anchor={`review-${review.id}`}
          reviewId={review.id}
          openAtFirst={report.open === review.id}
          result={report.result?.reportedReviewId === review.id ? report.result : undefined}
        />
      ) : null}
    </li>
  );
}

function ReplyForm({ reviewId }: { reviewId: string }) {
  const fetcher = useFetcher<{ error?: string; success?: string; fieldErrors?: Record<string, string> }>();
  useFieldFocus(fetcher.data);
  const { errors, check } = useBrowserCheck(fetcher.data);
  // The schema (zod) loads with the form, not with the profile (docs/decisions/0050).
  const { prepare, withSchemas } = useSchemas(() => import("#core/reviews.ts"));
  const [open, setOpen] = useState(false);
  const [reply, setReply] = useState("");
  const id = useId();
  const busy = fetcher.state !== "idle";
  if (!open) {
    return (
      <div>
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setOpen(true);
            void prepare();
          }}
        >
          Reply
        </Button>
      </div>
    );
  }
  return (
    <fetcher.Form
      method="post"
      noValidate
      className="ml-4 grid gap-3 border-l-2 pl-4"
      onFocus={() => void prepare()}
      onSubmit={(event) => withSchemas(event, ({ replySchema }) => check(event, replySchema.safeParse({ reply })))}
    >
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="reviewId" value={reviewId} />
      <FormField id={`${id}-reply`} label="Your reply" required error={errors.reply} hint={`${textLength(reply)}/${REPLY_MAX} characters (at least 10). Shown publicly under the review; one reply per review.`}>
        <Textarea
          {...fieldControlProps(`${id}-reply`, { required: true, hintId: `${id}-reply-hint`, error: errors.reply })}
          name="reply"
          rows={4}
          maxLength={REPLY_MAX}
          value={reply}
          onChange={(event) => setReply(event.target.value)}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? "Posting..." : "Post Reply"}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}
