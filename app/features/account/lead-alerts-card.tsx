/** The account page's Lead alerts card (diggers): how often, which categories, and optional limits. */
import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { CategoryChecklist } from "#app/components/category-checklist.tsx";
import { FieldMessage, fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import type { CategoryGroup } from "#core/digger-types.ts";
import { NativeCheckbox } from "#app/components/ui/native-choice.tsx";
import { ALERT_FREQUENCIES, ALERT_FREQUENCY_LABELS, type LeadAlertPreferences } from "#core/lead-alerts.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";

const FREQUENCY_HINTS = {
  instant: "A notice for each matching gig, within a minute of it going up: by e-mail, push or both, as chosen in How to reach me.",
  daily: "One e-mail a day listing the day's matching gigs.",
  off: "No lead alerts.",
} as const;

export function LeadAlertsCard({
  card,
  errors,
  busyIntent,
}: {
  card: { preferences: LeadAlertPreferences | null; categories: CategoryGroup[]; verificationOn: boolean };
  errors: Record<string, string>;
  busyIntent: string | null;
}) {
  const { preferences, categories } = card;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Lead alerts</h2>
        </CardTitle>
        <CardDescription>Hear about new gigs that fit your work as soon as they are posted, or once a day.</CardDescription>
      </CardHeader>
      <CardContent>
        {preferences ? (
          // Keyed by the saved values, so the fields show them again after each save.
          <Form method="post" noValidate className="grid gap-5" key={JSON.stringify(preferences)}>
            <input type="hidden" name="intent" value="lead-alerts" />
            <fieldset className="grid gap-2" aria-describedby={errors.frequency ? "frequency-error" : undefined}>
              <legend className="mb-1 text-sm font-medium">Frequency</legend>
              {ALERT_FREQUENCIES.map((frequency) => (
                <label key={frequency} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name="frequency"
                    value={frequency}
                    defaultChecked={preferences.frequency === frequency}
                    className="mt-0.5 size-4 shrink-0 accent-[var(--primary-strong)]"
                  />
                  <span>
                    <span className="font-medium">{ALERT_FREQUENCY_LABELS[frequency]}</span>
                    <span className="block text-muted-foreground">{FREQUENCY_HINTS[frequency]}</span>
                  </span>
                </label>
              ))}
              <FieldMessage id="frequency" error={errors.frequency} />
            </fieldset>

            <fieldset className="grid gap-2" aria-describedby={errors.categoryIds ? "alert-categories-error" : undefined}>
              <legend className="mb-1 text-sm font-medium">Categories</legend>
              <p className="text-xs text-muted-foreground">A category takes in its sub-categories.</p>
              <CategoryChecklist categories={categories} selected={new Set(preferences.categoryIds)} label="Alert categories list" className="max-h-72" />
              <FieldMessage id="alert-categories" error={errors.categoryIds} />
            </fieldset>

            <div className="grid gap-5 sm:grid-cols-2">
              <FormField id="alert-keywords" label="Keywords" hint="Optional. Separate with commas; each must be in the gig's title or description." error={errors.keywords}>
                <Input
                  {...fieldControlProps("alert-keywords", { error: errors.keywords, hintId: "alert-keywords-hint" })}
                  name="keywords"
                  defaultValue={preferences.keywords.join(", ")}
                  placeholder="e.g. deck, cedar"
                />
              </FormField>
              <FormField id="alert-location" label="Location" hint="Optional. Only gigs whose location contains this text." error={errors.location}>
                <Input
                  {...fieldControlProps("alert-location", { error: errors.location, hintId: "alert-location-hint" })}
                  name="location"
                  defaultValue={preferences.location ?? ""}
                  placeholder="e.g. Austin"
                />
              </FormField>
              <FormField id="alert-max-price" label="Maximum lead price" hint="Optional, in dollars. Leads priced higher are left out." error={errors.maxLeadPrice}>
                <Input
                  {...fieldControlProps("alert-max-price", { error: errors.maxLeadPrice, hintId: "alert-max-price-hint" })}
                  name="maxLeadPrice"
                  inputMode="decimal"
                  defaultValue={preferences.maxLeadPriceCents === null ? "" : String(preferences.maxLeadPriceCents / 100)}
                  placeholder="e.g. 75"
                />
              </FormField>
            </div>
            {card.verificationOn ? (
              // Issue 49: a gig is usually verified a minute after it is posted; its alert goes then.
              <label className="flex items-start gap-2 text-sm">
                <span className="mt-0.5 flex">
                  <NativeCheckbox name="verifiedPhoneOnly" defaultChecked={preferences.verifiedPhoneOnly} aria-describedby="alert-verified-hint" />
                </span>
                <span>
                  <span className="font-medium">{PHONE_TEXTS.alertsVerifiedOnly}</span>
                  <span id="alert-verified-hint" className="block text-muted-foreground">
                    Leave out gigs whose client has not verified their phone number by a text message.
                  </span>
                </span>
              </label>
            ) : null}
            <div>
              <Button type="submit" disabled={busyIntent !== null}>
                {busyIntent === "lead-alerts" ? "Saving..." : "Save Alert Preferences"}
              </Button>
            </div>
          </Form>
        ) : (
          <p className="text-sm">
            Lead alerts follow your digger profile.{" "}
            <Link to="/digger-registration" className="underline">
              Complete your digger profile
            </Link>{" "}
            to get them.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
