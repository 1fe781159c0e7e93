import { useId } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import { OPS_REASON_MAX } from "#core/ops-users.ts";

/**
 * One console action on one row of a list (Hide a gig, Keep a review, Retry a refund), with
 * its own request, toast and field message: other rows' forms are untouched. With `reason`,
 * a required Reason field comes first (kept in the audit trail).
 */
export function RowAction({
  label,
  fields,
  reason,
  variant = "outline",
}: {
  label: string;
  fields: Record<string, string>;
  /** A required text sent as `reason`, labelled Reason unless told ("Note"). */
  reason?: { hint: string; label?: string };
  variant?: "outline" | "destructive" | "default";
}) {
  const fetcher = useFetcher<{ error?: string; success?: string; fieldErrors?: Record<string, string> }>();
  useFieldFocus(fetcher.data);
  const id = useId();
  const busy = fetcher.state !== "idle";
  const error = fetcher.data?.fieldErrors?.reason;
  return (
    <fetcher.Form method="post" noValidate className="grid gap-2">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {reason ? (
        <FormField id={`${id}-reason`} label={reason.label ?? "Reason"} required error={error} hint={reason.hint}>
          <Textarea {...fieldControlProps(`${id}-reason`, { error, hintId: `${id}-reason-hint`, required: true })} name="reason" rows={2} maxLength={OPS_REASON_MAX} />
        </FormField>
      ) : null}
      <div>
        <Button type="submit" size="sm" variant={variant} disabled={busy}>
          {label}
        </Button>
      </div>
    </fetcher.Form>
  );
}
