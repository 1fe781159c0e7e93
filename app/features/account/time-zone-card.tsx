/** /account's Time zone (issue 47): the zone every date and time of the account is written in. */
import { Form } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";

export interface TimeZoneChoices {
  /** The account's zone; null: none told yet (the default applies). */
  timeZone: string | null;
  defaultTimeZone: string;
  /** Every zone the server knows, sent by the page (the browser lists none itself). */
  zones: string[];
}

export function TimeZoneCard({ card, error, busyIntent }: { card: TimeZoneChoices; error?: string; busyIntent: string | null }) {
  const current = card.timeZone ?? card.defaultTimeZone;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Time zone</CardTitle>
        <CardDescription>
          {card.timeZone
            ? "Dates and times on the site, in e-mails and in notifications are shown in this zone."
            : `Not set yet: dates and times are shown in the site's default, ${card.defaultTimeZone}.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {/* Keyed by the saved zone: the list shows it again after each save. */}
        <Form method="post" noValidate className="grid max-w-sm gap-4" key={current}>
          <input type="hidden" name="intent" value="time-zone" />
          <FormField id="time-zone" label="Time zone" error={error}>
            <NativeSelect {...fieldControlProps("time-zone", { error })} name="timeZone" defaultValue={current}>
              {card.zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll("_", " ")}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <Button type="submit" variant="outline" disabled={busyIntent !== null}>
            {busyIntent === "time-zone" ? "Saving..." : "Save Time Zone"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
