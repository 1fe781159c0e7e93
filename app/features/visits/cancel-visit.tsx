import { useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, focusBackOnClose } from "#app/components/ui/dialog.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import { VISIT_REASON_MAX, VISIT_TEXTS, visitCancelSchema } from "#core/visits.ts";

type Answer = { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined;

/**
 * Cancel visit (issue 50), either party's, with a reason (up to 200 characters) the other party
 * reads, in a dialog (as a quote's Decline): it says who is told, and that a cancellation within
 * 24 hours of the window is a 'Late cancellation' (`late`, from the server). The server checks
 * the visit is still booked and its window has not opened
 * (server/conversations/visits/cancel-visit-in-thread.ts); the root toasts its answer.
 */
export function CancelVisit({ threadId, visitId, otherName, late }: { threadId: string; visitId: string; otherName: string; late: boolean }) {
  const fetcher = useFetcher<Answer>();
  const { errors, check } = useBrowserCheck(fetcher.data);
  const [open, setOpen] = useState(false);
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={opener} type="button" variant="outline" className="w-full sm:w-auto" onClick={() => setOpen(true)}>
        {VISIT_TEXTS.cancel}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent onCloseAutoFocus={(event) => focusBackOnClose(event, opener)}>
          <DialogHeader>
            <DialogTitle>{VISIT_TEXTS.cancelTitle}</DialogTitle>
            <DialogDescription>{VISIT_TEXTS.cancelTold(otherName)}</DialogDescription>
          </DialogHeader>
          {late ? (
            <p role="note" className="rounded-md bg-destructive/10 px-3 py-2 text-sm font-medium">
              {VISIT_TEXTS.lateWarning}
            </p>
          ) : null}
          <fetcher.Form
            method="post"
            action={`/messages/${threadId}`}
            noValidate
            className="grid gap-3"
            onSubmit={(event) => {
              check(event, visitCancelSchema.safeParse({ visitId, reason: new FormData(event.currentTarget).get("reason") }));
              if (!event.defaultPrevented) setOpen(false);
            }}
          >
            <input type="hidden" name="intent" value="cancel-visit" />
            <input type="hidden" name="visitId" value={visitId} />
            <FormField id={`${id}-reason`} label={VISIT_TEXTS.reason} required error={errors.reason}>
              <Textarea {...fieldControlProps(`${id}-reason`, { error: errors.reason, required: true })} name="reason" rows={3} maxLength={VISIT_REASON_MAX} />
            </FormField>
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  {VISIT_TEXTS.keep}
                </Button>
              </DialogClose>
              <Button type="submit" variant="destructive" disabled={fetcher.state !== "idle"}>
                {VISIT_TEXTS.cancel}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
