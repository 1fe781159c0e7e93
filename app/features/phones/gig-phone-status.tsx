import { Form, useFetcher } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { PhoneStatus } from "#app/components/phone-status.tsx";
import { PHONE_TEXTS, type PhoneStatus as Status } from "#core/phone-verification.ts";

/** The intent of 'Verify this number' on /my-gigs and /my-gigs/{id}/edit (server/gigs/verify-gig-phone.ts). */
export const VERIFY_GIG_PHONE_INTENT = "verify-phone";

/**
 * A gig's phone status for its owner (issue 49) and, while not verified, 'Verify this number':
 * a code to the gig's number, then the code step. On My Gigs, a fetcher's form (a refusal is the
 * root's toast; the code step's redirect is followed).
 */
export function GigPhoneStatus({ gigId, status, describedBy }: { gigId: string; status: Status | null; describedBy?: string }) {
  if (status === null) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <PhoneStatus status={status} />
      {status === "not_verified" ? <VerifyGigPhoneButton gigId={gigId} describedBy={describedBy} /> : null}
    </div>
  );
}

/** Its own component so that only a card whose number waits for a check sets up a fetcher (issue 52). */
function VerifyGigPhoneButton({ gigId, describedBy }: { gigId: string; describedBy: string | undefined }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={VERIFY_GIG_PHONE_INTENT} />
      <input type="hidden" name="gigId" value={gigId} />
      <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"} aria-describedby={describedBy}>
        {PHONE_TEXTS.verifyNumber}
      </Button>
    </fetcher.Form>
  );
}

const EDIT_FORM_ID = "verify-gig-phone";

/**
 * Edit Gig's 'Verify this number': its button sits under the gig form's phone field, and sends
 * this form (outside the gig's: forms do not nest) through its `form` attribute. A page form, so
 * that a number that cannot receive texts gets its message beside the field.
 */
export function VerifyGigPhoneForm({ gigId }: { gigId: string }) {
  return (
    <Form id={EDIT_FORM_ID} method="post" hidden>
      <input type="hidden" name="intent" value={VERIFY_GIG_PHONE_INTENT} />
      <input type="hidden" name="gigId" value={gigId} />
    </Form>
  );
}

/** Under Edit Gig's phone field: the stored number's status, and 'Verify this number' (VerifyGigPhoneForm) while not verified. */
export function EditGigPhoneNote({ status }: { status: Status | null }) {
  if (status === null) return null;
  return (
    <div className="-mt-3 flex flex-wrap items-center gap-x-3 gap-y-2">
      <PhoneStatus status={status} />
      {status === "not_verified" ? (
        <Button type="submit" form={EDIT_FORM_ID} variant="outline" size="sm">
          {PHONE_TEXTS.verifyNumber}
        </Button>
      ) : null}
    </div>
  );
}
