import { Form, useNavigation } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { OPS_REASON_MAX, OPS_USER_MESSAGES, type OpsUserAccount } from "#core/ops-users.ts";

/**
 * Suspend (an active account) or Reinstate (a suspended one), each with its reason. An
 * operator's own account, another operator's and a deleted one offer neither (the server
 * refuses them too).
 */
export function StandingForm({ account, self, fieldErrors }: { account: OpsUserAccount; self: boolean; fieldErrors?: Record<string, string> }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.has("intent") === true;
  if (account.deletedAt) return <p className="text-sm text-muted-foreground">{OPS_USER_MESSAGES.deleted}</p>;
  const suspended = account.suspendedAt !== null;
  if (!suspended && (self || account.operatorSince)) {
    return <p className="text-sm text-muted-foreground">{self ? OPS_USER_MESSAGES.notSelf : OPS_USER_MESSAGES.notOperator}</p>;
  }
  const error = fieldErrors?.reason;
  return (
    <section aria-labelledby="standing-heading" className="grid gap-3 rounded-md border p-4">
      <h2 id="standing-heading" className="text-xl font-semibold">
        {suspended ? "Reinstate this account" : "Suspend this account"}
      </h2>
      <p className="text-sm text-muted-foreground">
        {suspended
          ? "The user can sign in again, and their open gigs and profile are shown again. They are told by e-mail."
          : "The user is signed out everywhere at once and cannot sign in; their open gigs and profile leave every public page. They are told by e-mail, without the reason."}
      </p>
      {/* Keyed by the intent: once the standing changes, the other form starts empty. */}
      <Form key={suspended ? "reinstate" : "suspend"} method="post" noValidate className="grid gap-3">
        <input type="hidden" name="intent" value={suspended ? "reinstate" : "suspend"} />
        <FormField id="reason" label="Reason" required error={error} hint="Kept in the audit trail; only operators see it.">
          <Textarea {...fieldControlProps("reason", { error, hintId: "reason-hint", required: true })} name="reason" rows={3} maxLength={OPS_REASON_MAX} />
        </FormField>
        <div>
          <Button type="submit" variant={suspended ? "default" : "destructive"} disabled={busy}>
            {suspended ? "Reinstate" : "Suspend"}
          </Button>
        </div>
      </Form>
    </section>
  );
}
