import { useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogOnceOpened, DialogTitle, focusBackOnClose } from "#app/components/ui/dialog.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck, useFieldFocus } from "#app/lib/use-action-toast.ts";
import { useCloseOnSuccess } from "#app/lib/use-loaded-dialog.ts";
import { FAKE_REQUEST_HINT, ISSUE_DESCRIPTION_MAX, ISSUE_TYPE_LABELS, ISSUE_TYPES, issueReportSchema, WRONG_PHONE } from "#core/lead-issues.ts";

/**
 * Report Issue: type and description, checked here for speed ('Please fill in all fields'
 * as a toast, and beside each field that is missing) and again on the server, whose answer
 * marks the fields the same way. The fetcher is the dialog's own: a card with nothing to report
 * (a report sent, the window closed) sets none up, and the answer that takes the dialog off the
 * card is toasted by the root from the router (FetcherToasts). 'Wrong Phone Number' is
 * offered only for a gig that gives a phone (issue 49; the server refuses it otherwise), and says
 * when the client verified the number when it was verified at purchase.
 */
export function ReportIssueDialog({
  purchaseId,
  gigTitle,
  hasPhone,
  phoneVerifiedOn,
}: {
  purchaseId: string;
  gigTitle: string;
  hasPhone: boolean;
  phoneVerifiedOn: string | null;
}) {
  const fetcher = useFetcher<{ error?: string; success?: string; fieldErrors?: Record<string, string> }>();
  useFieldFocus(fetcher.data);
  const [open, setOpen] = useState(false);
  const [type, setType] = useState("");
  const id = useId();
  const busy = fetcher.state !== "idle";
  const { errors, check } = useBrowserCheck(fetcher.data);

  // Closed, the form starts over: its fields are unmounted, and the type's line goes with them.
  const openChange = (next: boolean) => {
    setOpen(next);
    if (!next) setType("");
  };
  useCloseOnSuccess(fetcher.data, () => openChange(false));

  // Its own button rather than Radix's trigger: each lead's card holds one, and the dialog is made
  // only once it first opens (issue 52); closing it brings the focus back here, as a trigger's would.
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={trigger} variant="outline" aria-haspopup="dialog" aria-expanded={open} onClick={() => openChange(true)}>
        Report Issue
      </Button>
      <DialogOnceOpened open={open} onOpenChange={openChange}>
        <DialogContent onCloseAutoFocus={(event) => focusBackOnClose(event, trigger)}>
          <DialogHeader>
            <DialogTitle>Report an Issue</DialogTitle>
            <DialogDescription>{`Tell the client what is wrong with the lead "${gigTitle}".`}</DialogDescription>
          </DialogHeader>
          <fetcher.Form
            method="post"
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              const form = new FormData(event.currentTarget);
              check(event, issueReportSchema.safeParse({ issueType: form.get("issueType"), description: form.get("description") }));
            }}
          >
            <input type="hidden" name="intent" value="report-issue" />
            <input type="hidden" name="purchaseId" value={purchaseId} />
            <FormField id={`${id}-type`} label="Issue Type" required error={errors.issueType} hint={FAKE_REQUEST_HINT}>
              <NativeSelect
                {...fieldControlProps(`${id}-type`, { required: true, error: errors.issueType, hintId: `${id}-type-hint` })}
                name="issueType"
                value={type}
                onChange={(event) => setType(event.currentTarget.value)}
              >
                <option value="" disabled>
                  Select an issue type
                </option>
                {ISSUE_TYPES.filter((option) => hasPhone || option !== WRONG_PHONE).map((option) => (
                  <option key={option} value={option}>
                    {ISSUE_TYPE_LABELS[option]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            {type === WRONG_PHONE && phoneVerifiedOn ? (
              <p className="text-sm font-medium" role="status">
                {phoneVerifiedOn}
              </p>
            ) : null}
            <FormField id={`${id}-description`} label="Description" required error={errors.description}>
              <Textarea
                {...fieldControlProps(`${id}-description`, { required: true, error: errors.description })}
                name="description"
                rows={5}
                maxLength={ISSUE_DESCRIPTION_MAX}
                placeholder="Describe the issue with this lead..."
              />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => openChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? "Submitting..." : "Submit Report"}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </DialogOnceOpened>
    </>
  );
}
