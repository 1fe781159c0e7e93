/**
 * /account's Phone card (issue 49): the number to reuse on new gigs, with its status ('Phone
 * verified' or not) and 'Verify this number' while it is not; Save sends a code for a number
 * not yet verified (the code step follows). While phone verification is off, only the number.
 */
import { Form } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { PhoneStatus } from "#app/components/phone-status.tsx";
import { PHONE_TEXTS, type PhoneStatus as Status } from "#core/phone-verification.ts";

export interface AccountPhone {
  number: string | null;
  status: Status | null;
  verificationOn: boolean;
  emailVerified: boolean;
}

export function AccountPhoneCard({ card, error, busyIntent }: { card: AccountPhone; error?: string; busyIntent: string | null }) {
  const busy = busyIntent !== null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{PHONE_TEXTS.accountCardTitle}</CardTitle>
        <CardDescription>{card.verificationOn ? PHONE_TEXTS.accountPhoneHint : PHONE_TEXTS.accountPhoneHintNoVerification}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {card.number ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-medium">{card.number}</span>
            <PhoneStatus status={card.status} />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{PHONE_TEXTS.accountPhoneNone}</p>
        )}
        {card.status === "not_verified" && !card.emailVerified ? <p className="text-sm">{PHONE_TEXTS.confirmEmailFirst}</p> : null}
        {card.status === "not_verified" && card.emailVerified ? (
          <Form method="post">
            <input type="hidden" name="intent" value="phone-verify" />
            <Button type="submit" disabled={busy}>
              {busyIntent === "phone-verify" ? "Sending..." : PHONE_TEXTS.verifyNumber}
            </Button>
          </Form>
        ) : null}
        {/* Keyed by the saved number: the field shows it again after each save. */}
        <Form method="post" noValidate className="grid max-w-sm gap-4" key={card.number ?? ""}>
          <input type="hidden" name="intent" value="phone-save" />
          <FormField id="account-phone" label={PHONE_TEXTS.accountPhoneLabel} error={error}>
            <Input {...fieldControlProps("account-phone", { error })} name="accountPhone" type="tel" autoComplete="tel" defaultValue={card.number ?? ""} maxLength={40} />
          </FormField>
          <Button type="submit" variant="outline" disabled={busy}>
            {busyIntent === "phone-save" ? "Saving..." : PHONE_TEXTS.save}
          </Button>
        </Form>
        {card.number ? (
          <Form method="post">
            <input type="hidden" name="intent" value="phone-remove" />
            <Button type="submit" variant="ghost" className="text-destructive" disabled={busy}>
              {busyIntent === "phone-remove" ? "Removing..." : PHONE_TEXTS.remove}
            </Button>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}
