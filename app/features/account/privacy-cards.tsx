/** The account page's privacy controls: download my data, e-mail preferences, delete my account. */
import { Form } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";

const ACCOUNT_DATA_PATH = "/account/data";

export function DownloadDataCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Download my data</CardTitle>
        <CardDescription>
          A JSON file with everything we hold about you: your account, digger profile, gigs, purchases, issues, reference
          contact requests and the e-mails we sent you.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <a href={ACCOUNT_DATA_PATH} download>
            Download My Data
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

/** One switch saved by its own form (its `intent`); keyed by the saved value, so the box shows it again after each save. */
function SwitchForm(p: { intent: string; id: string; name: string; on: boolean; label: string; save: string; busyIntent: string | null }) {
  return (
    <Form method="post" noValidate className="grid max-w-sm gap-4" key={String(p.on)}>
      <input type="hidden" name="intent" value={p.intent} />
      <div className="flex items-start gap-2">
        <Checkbox id={p.id} name={p.name} defaultChecked={p.on} className="mt-0.5" />
        <Label htmlFor={p.id} className="inline font-normal leading-snug">
          {p.label}
        </Label>
      </div>
      <Button type="submit" variant="outline" disabled={p.busyIntent !== null}>
        {p.busyIntent === p.intent ? "Saving..." : p.save}
      </Button>
    </Form>
  );
}

export function EmailPreferencesCard({ promotionalEmail, busyIntent }: { promotionalEmail: boolean; busyIntent: string | null }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>E-mail preferences</CardTitle>
        <CardDescription>
          E-mail about your account, purchases, refunds and requests (transactional e-mail) is always sent.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SwitchForm
          intent="email-preferences"
          id="promotional-email"
          name="promotionalEmail"
          on={promotionalEmail}
          label="Promotional e-mail: news, tips and offers from Digs & Gigs"
          save="Save Preferences"
          busyIntent={busyIntent}
        />
      </CardContent>
    </Card>
  );
}

export function DeleteAccountCard({ error, busyIntent }: { error?: string; busyIntent: string | null }) {
  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle>Delete my account</CardTitle>
        <CardDescription>
          You are signed out everywhere at once, and your public profile and open gigs disappear from the site. Your
          personal data is deleted within 30 days; payment records of completed purchases are kept, anonymised. This cannot
          be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" noValidate className="grid max-w-sm gap-4">
          <input type="hidden" name="intent" value="delete-account" />
          <FormField id="confirm-email" label="Type your e-mail address to confirm" error={error}>
            <Input {...fieldControlProps("confirm-email", { error })} name="confirmEmail" type="email" autoComplete="off" required />
          </FormField>
          <Button type="submit" variant="destructive" disabled={busyIntent !== null}>
            {busyIntent === "delete-account" ? "Deleting..." : "Delete My Account"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
