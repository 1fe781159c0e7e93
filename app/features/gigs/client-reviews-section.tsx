import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { Stars } from "#app/components/rating.tsx";
import { ReviewReportForm, type ReportState } from "#app/components/review-report-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { CLIENT_REVIEW_QUESTIONS, TWO_WAY_TEXTS, type ShownClientReview } from "#core/two-way-reviews.ts";

/** The section's anchor: a notice links to /account#client-reviews. */
const CLIENT_REVIEWS_ANCHOR = "client-reviews";

/**
 * 'Client reviews' (issue 51) on /gig/{id} and /account: the client's published reviews from
 * diggers, newest first, 10 a page (a link to the next page, and back to the newest), each with
 * its stars, the digger's handle (their profile's link; 'Former digger' once deleted), the date
 * in the reader's zone as the server wrote it, the questions the digger answered and the text,
 * as plain text. A signed-in reader may report one (`report`: null for a visitor).
 */
export function ClientReviewsSection({
  page,
  firstPage,
  report,
}: {
  page: { items: ShownClientReview[]; nextCursor: string | null };
  firstPage: boolean;
  report: ReportState | null;
}) {
  return (
    <section id={CLIENT_REVIEWS_ANCHOR} aria-labelledby="client-reviews-title" className="scroll-mt-20">
      <Card className="gap-4">
        <CardHeader>
          <h2 id="client-reviews-title" className="text-lg font-semibold">
            {TWO_WAY_TEXTS.sectionTitle}
          </h2>
        </CardHeader>
        <CardContent className="grid gap-4">
          {page.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">{TWO_WAY_TEXTS.noReviews}</p>
          ) : (
            <ul aria-label={TWO_WAY_TEXTS.sectionTitle} className="grid gap-4">
              {page.items.map((review) => (
                <ClientReviewItem key={review.id} review={review} report={report} />
              ))}
            </ul>
          )}
          {firstPage ? null : (
            <div className="flex justify-center">
              <Button asChild variant="ghost">
                <Link to={`?#${CLIENT_REVIEWS_ANCHOR}`} preventScrollReset={false}>
                  Newest reviews
                </Link>
              </Button>
            </div>
          )}
          <NextPageLink nextCursor={page.nextCursor} label="More client reviews" hash={CLIENT_REVIEWS_ANCHOR} />
        </CardContent>
      </Card>
    </section>
  );
}

function ClientReviewItem({ review, report }: { review: ShownClientReview; report: ReportState | null }) {
  const anchor = `client-review-${review.id}`;
  const answered = CLIENT_REVIEW_QUESTIONS.flatMap(({ name, label }) => {
    const answer = review.answers[name];
    return answer === null ? [] : [{ label, answer }];
  });
  return (
    <li id={anchor} className="grid scroll-mt-20 gap-2 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Stars rating={review.rating} />
        {review.diggerId ? (
          <Link to={`/digger/${review.diggerId}`} className="font-medium underline underline-offset-4 [overflow-wrap:anywhere]">
            {review.diggerHandle}
          </Link>
        ) : (
          <span className="font-medium [overflow-wrap:anywhere]">{review.diggerHandle}</span>
        )}
        <time dateTime={review.publishedAt} title={review.publishedAtTitle} className="text-sm text-muted-foreground">
          {review.publishedAtText}
        </time>
      </div>
      {answered.length > 0 ? (
        <ul aria-label="The digger's answers" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {answered.map(({ label, answer }) => (
            <li key={label}>
              <span className="text-muted-foreground">{`${label}: `}</span>
              <span className="font-medium">{answer ? "Yes" : "No"}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="whitespace-pre-line [overflow-wrap:anywhere]">{review.body}</p>
      {report ? (
        <ReviewReportForm
          reviewId={review.id}
          anchor={anchor}
          openAtFirst={report.open === review.id}
          result={report.result?.reportedReviewId === review.id ? report.result : undefined}
        />
      ) : null}
    </li>
  );
}
