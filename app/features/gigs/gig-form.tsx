import { useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { DESCRIPTION_MAX, PHONE_HINT, TITLE_MAX } from "#core/gig-texts.ts";
import type { GigFormValues } from "#core/gig-types.ts";
import { DEFAULT_MAX_DIGGERS, MAX_DIGGERS, MIN_DIGGERS } from "#core/lead-spots.ts";

const MAX_DIGGERS_HINT = "Fewer diggers means fewer calls for you and a better chance for each digger";
const DIGGER_CHOICES = Array.from({ length: MAX_DIGGERS - MIN_DIGGERS + 1 }, (_, i) => MIN_DIGGERS + i);

interface Props {
  categories: Array<{ id: string; name: string }>;
  /** The earliest deadline the date picker offers. */
  minDeadline: string;
  errors: Record<string, string>;
  /** The gig's current values (editing); empty for a new gig. */
  values?: GigFormValues;
  /** A new gig's phone: the account's verified number (issue 49), if any. */
  defaultPhone?: string | null;
  /** What follows the phone field (Edit Gig: its status and 'Verify this number'). */
  phoneNote?: ReactNode;
  /**
   * After a purchase only the timeline, deadline, contact preferences and phone may change: the
   * other fields are shown, read-only, and not sent (the server refuses them anyway).
   */
  locked?: boolean;
  submitLabel: string;
  busyLabel: string;
  cancelTo: string;
  /** What comes before the buttons (the terms box on /post-gig). */
  footer?: ReactNode;
}

/** The gig's fields, for /post-gig and for editing a gig (My Gigs' Edit). */
export function GigForm({ categories, minDeadline, errors, values, defaultPhone, phoneNote, locked = false, submitLabel, busyLabel, cancelTo, footer }: Props) {
  const busy = useNavigation().state === "submitting";
  const [descriptionLength, setDescriptionLength] = useState(values?.description.length ?? 0);
  return (
    <Form method="post" noValidate className="grid gap-5">
      <FormField id="title" label="Project Title" error={errors.title}>
        <Input
          {...fieldControlProps("title", { error: errors.title })}
          name="title"
          required
          maxLength={TITLE_MAX}
          defaultValue={values?.title}
          disabled={locked}
          placeholder="e.g. Repaint a two-bedroom apartment"
        />
      </FormField>
      <FormField id="description" label="Project Description" error={errors.description}>
        <Textarea
          {...fieldControlProps("description", { error: errors.description, hintId: "description-count" })}
          name="description"
          required
          rows={6}
          maxLength={DESCRIPTION_MAX}
          defaultValue={values?.description}
          disabled={locked}
          onChange={(e) => setDescriptionLength(e.target.value.length)}
          placeholder="What needs doing, how big is it, anything a digger should know"
        />
        <p id="description-count" className="text-right text-xs text-muted-foreground">
          {`${descriptionLength}/${DESCRIPTION_MAX}`}
        </p>
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="location" label="Location" error={errors.location}>
          <Input
            {...fieldControlProps("location", { error: errors.location })}
            name="location"
            required
            defaultValue={values?.location}
            disabled={locked}
            placeholder="City, State"
          />
        </FormField>
        <FormField id="timeline" label="Project Timeline" error={errors.timeline}>
          <Input
            {...fieldControlProps("timeline", { error: errors.timeline })}
            name="timeline"
            required
            defaultValue={values?.timeline}
            placeholder="e.g. Within 2 weeks"
          />
        </FormField>
      </div>
      <FormField id="categoryId" label="Category" error={errors.categoryId}>
        <NativeSelect
          {...fieldControlProps("categoryId", { error: errors.categoryId })}
          name="categoryId"
          required
          defaultValue={values?.categoryId ?? ""}
          disabled={locked}
        >
          <option value="" disabled>
            Select a category
          </option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id="maxDiggers" label="Maximum diggers" hint={MAX_DIGGERS_HINT} error={errors.maxDiggers}>
        <NativeSelect
          {...fieldControlProps("maxDiggers", { error: errors.maxDiggers, hintId: "maxDiggers-hint" })}
          name="maxDiggers"
          defaultValue={String(values?.maxDiggers ?? DEFAULT_MAX_DIGGERS)}
          disabled={locked}
        >
          {DIGGER_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="budgetMin" label="Minimum Budget ($)" error={errors.budgetMin}>
          <Input
            {...fieldControlProps("budgetMin", { error: errors.budgetMin })}
            name="budgetMin"
            type="number"
            min={0}
            step={1}
            inputMode="decimal"
            defaultValue={values?.budgetMin}
            disabled={locked}
            placeholder="500"
          />
        </FormField>
        <FormField id="budgetMax" label="Maximum Budget ($)" error={errors.budgetMax}>
          <Input
            {...fieldControlProps("budgetMax", { error: errors.budgetMax })}
            name="budgetMax"
            type="number"
            min={0}
            step={1}
            inputMode="decimal"
            defaultValue={values?.budgetMax}
            disabled={locked}
            placeholder="1500"
          />
        </FormField>
      </div>
      <FormField id="deadline" label="Project Deadline" error={errors.deadline}>
        <Input {...fieldControlProps("deadline", { error: errors.deadline })} name="deadline" type="date" min={minDeadline} defaultValue={values?.deadline} />
      </FormField>
      <FormField id="contactPreferences" label="Contact Preferences" error={errors.contactPreferences}>
        <Input
          {...fieldControlProps("contactPreferences", { error: errors.contactPreferences })}
          name="contactPreferences"
          defaultValue={values?.contactPreferences}
          placeholder="e.g. Text me after 5pm"
        />
      </FormField>
      <FormField id="contactPhone" label="Phone" hint={PHONE_HINT} error={errors.contactPhone}>
        <Input
          {...fieldControlProps("contactPhone", { error: errors.contactPhone, hintId: "contactPhone-hint" })}
          name="contactPhone"
          type="tel"
          autoComplete="tel"
          maxLength={20}
          defaultValue={values?.contactPhone ?? defaultPhone ?? undefined}
          placeholder="e.g. (555) 123-4567"
        />
      </FormField>
      {phoneNote}
      {footer}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        <Button asChild variant="outline">
          <Link to={cancelTo}>Cancel</Link>
        </Button>
      </div>
    </Form>
  );
}
