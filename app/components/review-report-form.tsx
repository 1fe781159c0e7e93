import { useId, useState } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { Link } from "#app/components/link.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck, useFieldFocus, useSchemas } from "#app/lib/use-action-toast.ts";
import { REPORT_REASON_MAX, REPORT_REASON_MIN, REVIEW_REPORT_MESSAGES } from "#core/review-report-texts.ts";
import { textLength } from "#core/review-texts.ts";

export type ReportResult = { error?: string; success?: string; fieldErrors?: Record<string, string> };

/** Which review's Report form the address opens (`?report={id}`), and the answer to a report posted without JavaScript. */
export interface ReportState {
  open: string | null;
  result?: ReportResult & { reportedReviewId?: string };
}

/**
 * Report under a review (issue 22; a digger's review of a client, issue 51): a link to this page
 * with the review's form open (`?report={id}#{anchor}`, so that it works without JavaScript);
 * with JavaScript it opens the form in place. The form posts `intent=report-review`, `reviewId`
 * and a reason to the page's own action; the operators see the reason in their Reviews queue.
 */
export function ReviewReportForm({ reviewId, anchor, openAtFirst, result }: { reviewId: string; anchor: string; openAtFirst: boolean; result?: ReportResult }) {
  const fetcher = useFetcher<ReportResult>();
  const data = fetcher.data ?? result;
  useFieldFocus(fetcher.data);
  const { errors, check } = useBrowserCheck(data);
  const { prepare, withSchemas } = useSchemas(() => import("#core/ops-moderation.ts"));
  const [open, setOpen] = useState(openAtFirst);
  const [reason, setReason] = useState("");
  const [searchParams] = useSearchParams();
  const id = useId();
  const busy = fetcher.state !== "idle";
  if (data?.success) return <p className="text-sm text-muted-foreground">{REVIEW_REPORT_MESSAGES.reported}</p>;
  if (!open) {
    const opened = new URLSearchParams(searchParams);
    opened.set("report", reviewId);
    return (
      <div>
        <Button asChild size="sm" variant="link" className="h-auto px-0 text-muted-foreground">
          <Link
            to={`?${opened.toString()}#${anchor}`}
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              setOpen(true);
              void prepare();
            }}
          >
            Report
          </Link>
        </Button>
      </div>
    );
  }
  const error = errors.reason;
  return (
    <fetcher.Form
      method="post"
      noValidate
      className="grid gap-3 rounded-md border p-3"
      onFocus={() => void prepare()}
      onSubmit={(event) => withSchemas(event, ({ reviewReportSchema }) => check(event, reviewReportSchema.safeParse({ reviewId, reason })))}
    >
      <input type="hidden" name="intent" value="report-review" />
      <input type="hidden" name="reviewId" value={reviewId} />
      <FormField
        id={`${id}-reason`}
        label="Reason"
        required
        error={error}
        hint={`Why should an operator look at this review? ${textLength(reason)}/${REPORT_REASON_MAX} characters (at least ${REPORT_REASON_MIN}).`}
      >
        <Textarea
          {...fieldControlProps(`${id}-reason`, { error, required: true, hintId: `${id}-reason-hint` })}
          name="reason"
          rows={3}
          maxLength={REPORT_REASON_MAX}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" variant="outline" disabled={busy}>
          {busy ? "Reporting..." : "Report Review"}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}
