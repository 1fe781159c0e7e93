import { CheckCircle2 } from "#app/components/icons.tsx";
import { useId, useRef, useState, type RefObject } from "react";
import { useFetcher, type FetcherWithComponents } from "react-router";
import { fieldControlProps, FieldMessage, FormField } from "#app/components/form-field.tsx";
import { Stars } from "#app/components/rating.tsx";
import { StarRatingInput } from "#app/components/star-rating-input.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogOnceOpened, DialogTitle, focusBackOnClose } from "#app/components/ui/dialog.tsx";
import { NativeRadio } from "#app/components/ui/native-choice.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import { useLoadedDialog, useLoadRequests, type LoadRequests } from "#app/lib/use-loaded-dialog.ts";
import { clientReviewSchema, REVIEW_MAX, textLength } from "#core/reviews.ts";
import {
  CLIENT_REVIEW_QUESTIONS,
  CLIENT_REVIEW_TEXTS,
  clientReviewIntro,
  reviewClientLabel,
  TWO_WAY_TEXTS,
  type ClientReviewEntry,
  type ClientReviewForm,
  type ClientReviewQuestion,
  type OwnClientReview,
} from "#core/two-way-reviews.ts";

type Answer = { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined;
type YesNo = "" | "yes" | "no";

/**
 * The lead card's part of the digger's review of the client (issue 51): **Review {first name}**
 * while the review window runs; under it, once written and not yet shown, 'Your review will be
 * shown when …'; once shown, 'Reviewed' (which still opens the review, read-only).
 */
export function ClientReviewCardEntry({ entry }: { entry: ClientReviewEntry }) {
  return (
    <div className="grid justify-items-start gap-2" data-client-review={entry.state}>
      {entry.state === "published" ? (
        <ClientReviewButton purchaseId={entry.purchaseId} firstName={entry.firstName} label={CLIENT_REVIEW_TEXTS.reviewed} reviewed />
      ) : (
        <ClientReviewButton purchaseId={entry.purchaseId} firstName={entry.firstName} />
      )}
      {entry.waitingText ? <p className="text-sm text-muted-foreground">{entry.waitingText}</p> : null}
    </div>
  );
}

/**
 * Review {first name}: loads the form's state from the lead's resource route, then opens the
 * dialog (or says 'Failed to load the review'). `menuItem`: drawn as an entry of the thread's
 * menu, which it closes as it opens the dialog.
 */
export function ClientReviewButton({
  purchaseId,
  firstName,
  label = reviewClientLabel(firstName),
  reviewed = false,
  menuItem = false,
}: {
  purchaseId: string;
  firstName: string;
  label?: string;
  reviewed?: boolean;
  menuItem?: boolean;
}) {
  const requests = useLoadRequests();
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={opener}
        type="button"
        variant={menuItem ? "ghost" : "outline"}
        size={menuItem ? "sm" : "default"}
        className={menuItem ? "w-full justify-start" : undefined}
        disabled={requests.loading}
        onClick={(event) => {
          event.currentTarget.closest("details")?.removeAttribute("open");
          requests.ask();
        }}
      >
        {reviewed ? <CheckCircle2 aria-hidden="true" className="text-primary-strong" /> : null}
        {label}
      </Button>
      {requests.asks > 0 ? <ClientReviewDialog purchaseId={purchaseId} firstName={firstName} requests={requests} opener={opener} /> : null}
    </>
  );
}

function ClientReviewDialog({
  purchaseId,
  firstName,
  requests,
  opener,
}: {
  purchaseId: string;
  firstName: string;
  requests: LoadRequests;
  opener: RefObject<HTMLButtonElement | null>;
}) {
  const url = `/my-leads/${purchaseId}/review`;
  const { data, open, setOpen } = useLoadedDialog<ClientReviewForm>(url, "state", CLIENT_REVIEW_TEXTS.loadFailed, requests);
  // The form's fetcher belongs here, so that its answer outlives the form it replaces.
  const fetcher = useFetcher<Answer>();
  return (
    <DialogOnceOpened open={open} onOpenChange={setOpen}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg" onCloseAutoFocus={(event) => focusBackOnClose(event, opener)}>
        <DialogHeader>
          <DialogTitle>{reviewClientLabel(data?.clientFirstName ?? firstName)}</DialogTitle>
          <DialogDescription>{data ? clientReviewIntro(data.clientFirstName, data.gigTitle) : null}</DialogDescription>
        </DialogHeader>
        {data ? <ClientReviewPanel key={data.purchaseId} data={data} action={url} fetcher={fetcher} /> : null}
      </DialogContent>
    </DialogOnceOpened>
  );
}

/**
 * What the dialog shows: the form while the digger may write (or edit the review not yet shown);
 * else their review, read-only, with what comes next: the waiting line (and Edit review), 'This
 * review is published and can no longer be changed', or why the window is closed.
 */
function ClientReviewPanel({ data, action, fetcher }: { data: ClientReviewForm; action: string; fetcher: FetcherWithComponents<Answer> }) {
  const [editing, setEditing] = useState(false);
  // A save's success ends the editing (adjusted while rendering, on the new answer).
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data?.success) setEditing(false);
  }
  if (data.state === "open" && (!data.review || editing)) {
    return <ClientReviewFormView data={data} action={action} fetcher={fetcher} onCancel={data.review ? () => setEditing(false) : null} />;
  }
  return (
    <div className="grid gap-4">
      {data.waitingText ? (
        <p role="status" className="rounded-md border bg-muted/40 px-3 py-2 text-sm font-medium">
          {data.waitingText}
        </p>
      ) : null}
      {data.review ? <OwnReview review={data.review} /> : null}
      {data.state === "published" ? <p className="text-sm text-muted-foreground">{TWO_WAY_TEXTS.locked}</p> : null}
      {data.state === "closed" && data.closedText ? <p className="text-sm text-muted-foreground">{data.closedText}</p> : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Close
          </Button>
        </DialogClose>
        {data.state === "open" && data.review ? (
          <Button type="button" onClick={() => setEditing(true)}>
            {CLIENT_REVIEW_TEXTS.edit}
          </Button>
        ) : null}
      </DialogFooter>
    </div>
  );
}

/** The digger's own review as they wrote it: the stars, the text (as text, never markup) and the answers given. */
function OwnReview({ review }: { review: OwnClientReview }) {
  const answered = CLIENT_REVIEW_QUESTIONS.filter((question) => review[question.name] !== null);
  return (
    <section aria-label="Your review" className="grid gap-2 rounded-md border p-3">
      <Stars rating={review.rating} />
      <p className="text-sm whitespace-pre-line [overflow-wrap:anywhere]">{review.body}</p>
      {answered.length > 0 ? (
        <dl className="grid gap-1 text-sm">
          {answered.map((question) => (
            <div key={question.name} className="flex flex-wrap gap-x-2">
              <dt className="text-muted-foreground">{question.label}</dt>
              <dd className="font-medium">{review[question.name] ? CLIENT_REVIEW_TEXTS.yes : CLIENT_REVIEW_TEXTS.no}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}

const asYesNo = (value: boolean | null | undefined): YesNo => (value === true ? "yes" : value === false ? "no" : "");

/**
 * The form: Rating, Your review (20 to 2,000 characters, counted as typed) and the three optional
 * yes/no questions, checked here with the server's own schema and again on the server; each field
 * says what is wrong beside it. An edit starts from the review as it is.
 */
function ClientReviewFormView({
  data,
  action,
  fetcher,
  onCancel,
}: {
  data: ClientReviewForm;
  action: string;
  fetcher: FetcherWithComponents<Answer>;
  /** Back to the review as it is (an edit); null: a new review, Cancel closes the dialog. */
  onCancel: (() => void) | null;
}) {
  const id = useId();
  const [rating, setRating] = useState(data.review ? String(data.review.rating) : "");
  const [body, setBody] = useState(data.review?.body ?? "");
  const [answers, setAnswers] = useState<Record<ClientReviewQuestion, YesNo>>({
    asDescribed: asYesNo(data.review?.asDescribed),
    easyToReach: asYesNo(data.review?.easyToReach),
    paidAsAgreed: asYesNo(data.review?.paidAsAgreed),
  });
  const { errors, check } = useBrowserCheck(fetcher.data);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      action={action}
      noValidate
      className="grid gap-4"
      onSubmit={(event) => check(event, clientReviewSchema.safeParse({ rating: rating || undefined, body, ...answers }))}
    >
      {data.waitingText ? <p className="text-sm text-muted-foreground">{data.waitingText}</p> : null}
      <StarRatingInput id={id} value={rating} onChange={setRating} error={errors.rating} />
      <FormField id={`${id}-body`} label={TWO_WAY_TEXTS.bodyLabel} required hint={`${textLength(body)}/${REVIEW_MAX} characters (at least 20)`} error={errors.body}>
        <Textarea
          {...fieldControlProps(`${id}-body`, { required: true, hintId: `${id}-body-hint`, error: errors.body })}
          name="body"
          rows={5}
          maxLength={REVIEW_MAX}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          placeholder={`What was it like to work with ${data.clientFirstName}?`}
        />
      </FormField>
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">{CLIENT_REVIEW_TEXTS.questionsHint}</p>
        {CLIENT_REVIEW_QUESTIONS.map((question) => (
          <YesNoQuestion
            key={question.name}
            id={`${id}-${question.name}`}
            name={question.name}
            label={question.label}
            value={answers[question.name]}
            onChange={(value) => setAnswers((current) => ({ ...current, [question.name]: value }))}
            error={errors[question.name]}
          />
        ))}
      </div>
      <DialogFooter>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? "Submitting..." : TWO_WAY_TEXTS.submit}
        </Button>
      </DialogFooter>
    </fetcher.Form>
  );
}

/**
 * One optional question: a fieldset whose legend is the question, Yes and No as native radios
 * named after it (unanswered: nothing is sent), and Clear answer once one is chosen.
 */
function YesNoQuestion({
  id,
  name,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  name: ClientReviewQuestion;
  label: string;
  value: YesNo;
  onChange: (value: YesNo) => void;
  error?: string;
}) {
  const choice = "flex min-h-9 cursor-pointer items-center gap-2 rounded-md border px-3 has-[:checked]:border-primary-strong has-[:checked]:bg-primary/10";
  return (
    <fieldset className="grid gap-2" data-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap items-center gap-2">
        {(["yes", "no"] as const).map((option) => (
          <label key={option} className={choice}>
            <NativeRadio name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
            <span className="text-sm">{option === "yes" ? CLIENT_REVIEW_TEXTS.yes : CLIENT_REVIEW_TEXTS.no}</span>
          </label>
        ))}
        {value ? (
          <Button type="button" variant="ghost" size="sm" aria-label={`${CLIENT_REVIEW_TEXTS.clear}: ${label}`} onClick={() => onChange("")}>
            {CLIENT_REVIEW_TEXTS.clear}
          </Button>
        ) : null}
      </div>
      <FieldMessage id={id} error={error} />
    </fieldset>
  );
}
