import { CalendarCheck } from "#app/components/icons.tsx";
import { useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import type { NextVisitView, VisitCard as Visit, VisitFormState, VisitStateView } from "#core/visit-views.ts";
import { VISIT_OUTCOME_LABELS, VISIT_TEXTS } from "#core/visits.ts";
import { CancelVisit } from "./cancel-visit.tsx";
import { ProposeVisitForm } from "./visit-form.tsx";

type Answer = { error?: string; success?: string } | undefined;

/** The thread's next booked visit, under its header: 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST'. */
export function VisitBanner({ visit }: { visit: NextVisitView }) {
  return (
    <p data-testid="visit-banner" className="mt-2 flex items-start gap-2 rounded-md border border-primary/30 bg-primary/5 px-3 py-2 text-sm font-medium">
      <CalendarCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0 [overflow-wrap:anywhere]">{visit.line}</span>
    </p>
  );
}

/**
 * A visit proposal's card where it was sent in the thread (issue 50), with its current status:
 * its times in the reader's zone (written by the server), the client's 'Book {day, time}' per
 * time and 'Ask for other times' while it is open; once booked, the visit's state ('Visit booked:
 * …', 'Client confirmed', cancelled, the marks) and what the reader may do now: the digger's
 * Reschedule (the Propose a visit form, `form`), the client's Confirm and Reschedule (Need to
 * change), either's Cancel visit before the window opens; the marks after it closes.
 * `otherName`: the other party, whom a cancellation tells.
 */
export function VisitCardView({ visit, threadId, role, otherName, form }: { visit: Visit; threadId: string; role: "digger" | "client"; otherName: string; form: VisitFormState | null }) {
  const state = visit.visit;
  const live = visit.status === "open" || (state !== null && state.status === "booked");
  return (
    <article
      aria-label={visit.reschedule ? VISIT_TEXTS.newTimes : VISIT_TEXTS.proposedTimes}
      data-testid="visit-card"
      className={cn("grid w-full max-w-xl gap-3 rounded-lg border p-4 text-sm", role === "digger" ? "justify-self-end" : "justify-self-start", !live && "opacity-70")}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground uppercase">{visit.reschedule ? VISIT_TEXTS.newTimes : VISIT_TEXTS.proposedTimes}</p>
        {visit.statusText ? <Badge variant="outline">{visit.statusText}</Badge> : null}
      </div>
      {state ? <VisitState state={state} role={role} /> : null}
      {/* Once booked, the booked time is the card's: its line above, or (moved since) the one time. */}
      {state ? null : <VisitOptions visit={visit} threadId={threadId} />}
      {visit.note ? <p className="[overflow-wrap:anywhere] whitespace-pre-wrap">{`Note: ${visit.note}`}</p> : null}
      {visit.status === "open" && role === "digger" ? <p className="text-muted-foreground">{VISIT_TEXTS.waiting}</p> : null}
      {visit.canAnswer ? <AskOtherTimes threadId={threadId} proposalId={visit.id} /> : null}
      {state ? <VisitActions state={state} threadId={threadId} role={role} otherName={otherName} form={form} /> : null}
    </article>
  );
}

/** The booked visit's line and what happened to it since. */
function VisitState({ state, role }: { state: VisitStateView; role: "digger" | "client" }) {
  return (
    <div className="grid gap-2">
      <p className={cn("text-base font-semibold [overflow-wrap:anywhere]", state.status === "cancelled" && "line-through")}>{state.bookedLine}</p>
      <div className="flex flex-wrap gap-2">
        {state.confirmed ? <Badge>{VISIT_TEXTS.clientConfirmed}</Badge> : null}
        {state.cancelled?.late ? <Badge variant="destructive">{VISIT_TEXTS.lateCancellation}</Badge> : null}
      </div>
      {state.changeRequested && state.status === "booked" ? <p className="font-medium">{role === "client" ? VISIT_TEXTS.changeRequestedByYou : VISIT_TEXTS.changeRequested}</p> : null}
      {state.cancelled ? <p className="[overflow-wrap:anywhere] whitespace-pre-wrap">{state.cancelled.line}</p> : null}
      {state.marks.length > 0 ? (
        <ul className="grid gap-1">
          {state.marks.map((mark) => (
            <li key={mark.side}>
              <span className="font-medium">{mark.text}</span> <span className="text-muted-foreground">{`(${mark.by})`}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The proposal's times; the client's Book buttons while it is open; the booked one marked. */
function VisitOptions({ visit, threadId }: { visit: Visit; threadId: string }) {
  const fetcher = useFetcher<Answer>();
  const busy = fetcher.state !== "idle";
  if (visit.canAnswer && visit.options.some((option) => option.bookable)) {
    return (
      <fetcher.Form method="post" action={`/messages/${threadId}`} className="grid gap-2">
        <input type="hidden" name="intent" value="book-visit" />
        <input type="hidden" name="proposalId" value={visit.id} />
        <ul className="grid gap-2">
          {visit.options.map((option) => (
            <li key={option.position} className="grid gap-1">
              <p>
                <time dateTime={option.startsAt}>{option.windowText}</time>
              </p>
              {option.bookable ? (
                <Button type="submit" name="position" value={String(option.position)} className="h-auto w-full py-2 whitespace-normal" disabled={busy}>
                  {option.bookLabel}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      </fetcher.Form>
    );
  }
  const shown = visit.status === "booked" ? visit.options.filter((option) => option.position === visit.bookedPosition) : visit.options;
  return (
    <ul className="grid gap-1">
      {shown.map((option) => (
        <li key={option.position} className={cn("[overflow-wrap:anywhere]", visit.bookedPosition === option.position && "font-medium")}>
          <time dateTime={option.startsAt}>{option.windowText}</time>
          {visit.bookedPosition === option.position ? <span className="sr-only"> (booked)</span> : null}
        </li>
      ))}
    </ul>
  );
}

function AskOtherTimes({ threadId, proposalId }: { threadId: string; proposalId: string }) {
  const fetcher = useFetcher<Answer>();
  return (
    <fetcher.Form method="post" action={`/messages/${threadId}`}>
      <input type="hidden" name="intent" value="ask-other-times" />
      <input type="hidden" name="proposalId" value={proposalId} />
      <Button type="submit" variant="outline" className="w-full" disabled={fetcher.state !== "idle"}>
        {VISIT_TEXTS.askOtherTimes}
      </Button>
    </fetcher.Form>
  );
}

/** What the reader may do with the booked visit now. */
function VisitActions({ state, threadId, role, otherName, form }: { state: VisitStateView; threadId: string; role: "digger" | "client"; otherName: string; form: VisitFormState | null }) {
  const [rescheduling, setRescheduling] = useState(false);
  const { actions } = state;
  if (rescheduling && form) {
    return (
      <div className="border-t pt-3">
        <p className="mb-3 font-medium">{VISIT_TEXTS.reschedule}</p>
        <ProposeVisitForm threadId={threadId} form={form} onDone={() => setRescheduling(false)} />
      </div>
    );
  }
  const anything = actions.reschedule || actions.cancel || actions.confirm || actions.change || actions.marks.length > 0;
  if (!anything) return null;
  return (
    <div className="grid gap-2 border-t pt-3">
      {actions.marks.length > 0 ? (
        <>
          <p className="font-medium">{VISIT_TEXTS.howItWent}</p>
          <div className="grid gap-2 sm:flex sm:flex-wrap">
            {actions.marks.map((outcome) => (
              <VisitIntent key={outcome} threadId={threadId} intent="mark-visit" fields={{ visitId: state.id, outcome }} label={VISIT_OUTCOME_LABELS[outcome]} />
            ))}
          </div>
        </>
      ) : null}
      <div className="grid gap-2 sm:flex sm:flex-wrap">
        {actions.confirm ? <VisitIntent threadId={threadId} intent="confirm-visit" fields={{ visitId: state.id }} label={VISIT_TEXTS.confirm} /> : null}
        {actions.change ? <VisitIntent threadId={threadId} intent="change-visit" fields={{ visitId: state.id }} label={VISIT_TEXTS.reschedule} variant="outline" /> : null}
        {actions.reschedule && role === "digger" && form ? (
          <Button type="button" variant="outline" className="w-full sm:w-auto" onClick={() => setRescheduling(true)}>
            {VISIT_TEXTS.reschedule}
          </Button>
        ) : null}
        {actions.cancel ? <CancelVisit threadId={threadId} visitId={state.id} otherName={otherName} late={actions.lateIfCancelled} /> : null}
      </div>
    </div>
  );
}

/** One button that posts one of the visit's intents. */
function VisitIntent({ threadId, intent, fields, label, variant = "default" }: { threadId: string; intent: string; fields: Record<string, string>; label: string; variant?: "default" | "outline" }) {
  const fetcher = useFetcher<Answer>();
  return (
    <fetcher.Form method="post" action={`/messages/${threadId}`}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant={variant} className="w-full sm:w-auto" disabled={fetcher.state !== "idle"}>
        {label}
      </Button>
    </fetcher.Form>
  );
}
