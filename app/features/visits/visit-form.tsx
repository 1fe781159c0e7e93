import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import type { VisitFormState } from "#core/visit-views.ts";
import { VISIT_NOTE_MAX, VISIT_OPTIONS_MAX, VISIT_TEXTS, VISIT_WINDOW_LABELS, VISIT_WINDOWS, visitProposalSchema } from "#core/visits.ts";

type Answer = { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined;

/**
 * The digger's Propose a visit, as an action of the composer's '+' sheet (a ComposerAction of
 * app/features/messages/; `?compose=visit` opens it), while they may arrange visits (`form`, from
 * the server: null otherwise). The server decides who may (server/conversations/visits/).
 */
export function proposeVisitAction({ threadId, form }: { threadId: string; form: VisitFormState | null }): { id: string; label: string; render: (close: () => void) => ReactNode } | null {
  if (!form) return null;
  return {
    id: "visit",
    label: VISIT_TEXTS.propose,
    render: (close) => <ProposeVisitForm threadId={threadId} form={form} onDone={close} />,
  };
}

/** The form's rows as the server's reader (visit-form.ts) gives them to the schema: blank rows dropped. */
function schemaInput(form: FormData, rows: number): Record<string, unknown> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const options = Array.from({ length: rows }, (_, n) => ({ date: text(`options.${n}.date`), time: text(`options.${n}.time`), window: text(`options.${n}.window`) })).filter(
    (row) => (row.date ?? "").trim() !== "" || (row.time ?? "").trim() !== "",
  );
  return { options, note: text("note") };
}

const DEFAULT_WINDOW = 60;

/**
 * Propose a visit (issue 50): one to three times, each a date, a start time and an arrival
 * window, in the digger's zone (said under the title); an optional note. Also the digger's
 * Reschedule: the server makes the new times move the booked visit (`form.rescheduling` says so).
 * Checked here with the server's own schema first; the server answers 'Times sent'.
 */
export function ProposeVisitForm({ threadId, form, onDone }: { threadId: string; form: VisitFormState; onDone?: () => void }) {
  const fetcher = useFetcher<Answer>();
  const { errors, check } = useBrowserCheck(fetcher.data);
  // Each row's key (stable across removals); its fields are named by its place.
  const [rows, setRows] = useState<number[]>([0]);
  const next = useRef(1);
  const id = useId();
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.success) onDone?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form
      method="post"
      action={`/messages/${threadId}`}
      noValidate
      className="grid gap-4"
      aria-label={VISIT_TEXTS.propose}
      onSubmit={(event) => check(event, visitProposalSchema(form.zone, new Date()).safeParse(schemaInput(new FormData(event.currentTarget), rows.length)))}
    >
      <input type="hidden" name="intent" value="propose-visit" />
      <p className="text-sm text-muted-foreground">{VISIT_TEXTS.yourZone(form.zone)}</p>
      {form.rescheduling ? <p className="rounded-md bg-muted px-3 py-2 text-sm">{VISIT_TEXTS.reschedulingNote(form.rescheduling)}</p> : null}
      {errors.options ? <p className="text-sm text-destructive">{errors.options}</p> : null}
      <ol className="grid gap-3">
        {rows.map((key, n) => {
          const field = (name: string) => `${id}-${key}-${name}`;
          const error = (name: string) => errors[`options.${n}.${name}`];
          return (
            <li key={key} className="grid gap-3 rounded-md border p-3">
              <div className="flex items-center justify-between gap-2">
                <p className="text-sm font-medium">{`Time ${n + 1}`}</p>
                {rows.length > 1 ? (
                  <Button type="button" variant="ghost" size="sm" onClick={() => setRows(rows.filter((other) => other !== key))}>
                    {VISIT_TEXTS.removeTime}
                    <span className="sr-only">{` ${n + 1}`}</span>
                  </Button>
                ) : null}
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                <FormField id={field("date")} label={VISIT_TEXTS.date} required error={error("date")}>
                  <Input {...fieldControlProps(field("date"), { error: error("date"), required: true })} type="date" name={`options.${n}.date`} min={form.today} max={form.lastDay} />
                </FormField>
                <FormField id={field("time")} label={VISIT_TEXTS.startTime} required error={error("time")}>
                  <Input {...fieldControlProps(field("time"), { error: error("time"), required: true })} type="time" name={`options.${n}.time`} />
                </FormField>
                <FormField id={field("window")} label={VISIT_TEXTS.window} required error={error("window")}>
                  <NativeSelect {...fieldControlProps(field("window"), { error: error("window"), required: true })} name={`options.${n}.window`} defaultValue={String(DEFAULT_WINDOW)}>
                    {VISIT_WINDOWS.map((minutes) => (
                      <option key={minutes} value={minutes}>
                        {VISIT_WINDOW_LABELS[minutes]}
                      </option>
                    ))}
                  </NativeSelect>
                </FormField>
              </div>
            </li>
          );
        })}
      </ol>
      {rows.length < VISIT_OPTIONS_MAX ? (
        <div>
          <Button
            type="button"
            variant="outline"
            className="w-full sm:w-auto"
            onClick={() => {
              setRows([...rows, next.current]);
              next.current += 1;
            }}
          >
            {VISIT_TEXTS.addTime}
          </Button>
        </div>
      ) : null}
      <FormField id={`${id}-note`} label={VISIT_TEXTS.note} error={errors.note}>
        <Textarea {...fieldControlProps(`${id}-note`, { error: errors.note })} name="note" rows={3} maxLength={VISIT_NOTE_MAX} />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onDone ? (
          <Button type="button" variant="outline" className="w-full sm:w-auto" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
          {busy ? "Sending..." : VISIT_TEXTS.sendProposal}
        </Button>
      </div>
    </fetcher.Form>
  );
}
