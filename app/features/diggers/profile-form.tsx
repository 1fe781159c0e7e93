/**
 * The digger registration form (spec /digger-registration), also used to edit a profile.
 * The browser checks it with core's schema before sending, for quick feedback; the server
 * checks it again, and the photos' real content, whatever the browser said.
 */
import { Plus, Trash2 } from "#app/components/icons.tsx";
import { useMemo, useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { CategoryChecklist } from "#app/components/category-checklist.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { PhotoInput } from "./photo-input.tsx";
import { SectionCard } from "./section-card.tsx";
import {
  diggerFormValues,
  diggerProfileSchema,
  HANDLE_MAX_LENGTH,
  MAX_WORK_PHOTOS,
  normalizeHandle,
  PHOTO_CONTENT_TYPES,
  PHOTO_MESSAGES,
  photoProblem,
} from "#core/digger-schemas.ts";
import type { CategoryGroup, OwnDiggerProfile } from "#core/digger-types.ts";
import { FieldMessage, fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";

interface ReferenceBlock {
  key: string;
  id?: string;
  name?: string;
  email?: string;
  phone?: string | null;
  projectDescription?: string | null;
}

const ACCEPT = PHOTO_CONTENT_TYPES.join(",");
const dollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2).replace(/\.00$/, ""));
let nextKey = 0;
const newBlock = (from: Omit<ReferenceBlock, "key"> = {}): ReferenceBlock => ({ key: `ref-${nextKey++}`, ...from });

/** The first photo problem the browser can see (type, size, count), or null. */
function photoErrors(form: FormData): Record<string, string> {
  const errors: Record<string, string> = {};
  const files = (name: string) => form.getAll(name).filter((v): v is File => typeof v !== "string" && v.size > 0);
  const profileProblem = files("profilePhoto").map(photoProblem).find(Boolean);
  if (profileProblem) errors.profilePhoto = profileProblem;
  const work = files("workPhotos");
  const workProblem = work.map(photoProblem).find(Boolean);
  if (workProblem) errors.workPhotos = workProblem;
  else if (work.length + form.getAll("keepWorkPhotos").length > MAX_WORK_PHOTOS) errors.workPhotos = PHOTO_MESSAGES.count;
  return errors;
}

export function DiggerProfileForm({
  categories,
  profile,
  serverErrors,
}: {
  categories: CategoryGroup[];
  profile: OwnDiggerProfile | null;
  serverErrors: Record<string, string> | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [handle, setHandle] = useState(profile?.handle ?? "");
  const [references, setReferences] = useState<ReferenceBlock[]>(() =>
    profile && profile.references.length > 0 ? profile.references.map((r) => newBlock(r)) : [newBlock()],
  );
  const { errors, check } = useBrowserCheck(useMemo(() => (serverErrors ? { fieldErrors: serverErrors } : undefined), [serverErrors]));
  const selected = new Set(profile?.categoryIds ?? []);

  function validate(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    check(event, diggerProfileSchema.safeParse(diggerFormValues(form)), photoErrors(form));
  }

  return (
    <Form method="post" encType="multipart/form-data" noValidate onSubmit={validate} className="grid gap-6">
      <SectionCard title="Basic Information" description="Only your handle is shown publicly. Your phone and e-mail stay private; your business name is shown only to the clients whose leads you bought, in the issues dialog of their gig.">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="handle" label="Handle" error={errors.handle} hint="Lowercase letters, numbers and underscores.">
            <Input
              {...fieldControlProps("handle", { error: errors.handle, hintId: "handle-hint" })}
              name="handle"
              value={handle}
              onChange={(e) => setHandle(normalizeHandle(e.target.value).slice(0, HANDLE_MAX_LENGTH))}
              maxLength={HANDLE_MAX_LENGTH}
              autoComplete="username"
              required
            />
          </FormField>
          <FormField id="businessName" label="Business Name" error={errors.businessName}>
            <Input {...fieldControlProps("businessName", { error: errors.businessName })} name="businessName" defaultValue={profile?.businessName} autoComplete="organization" required maxLength={100} />
          </FormField>
          <FormField id="phone" label="Phone" error={errors.phone}>
            <Input {...fieldControlProps("phone", { error: errors.phone })} name="phone" type="tel" defaultValue={profile?.phone} autoComplete="tel" required maxLength={30} />
          </FormField>
          <FormField id="location" label="Location" error={errors.location}>
            <Input {...fieldControlProps("location", { error: errors.location })} name="location" defaultValue={profile?.location} placeholder="City, State" required maxLength={100} />
          </FormField>
          <FormField id="profession" label="Profession" error={errors.profession}>
            <Input {...fieldControlProps("profession", { error: errors.profession })} name="profession" defaultValue={profile?.profession} placeholder="e.g. Master Plumber" required maxLength={100} />
          </FormField>
          <FormField id="profilePhoto" label="Profile Photo" error={errors.profilePhoto} hint="JPEG, PNG or WebP, up to 5 MB.">
            <PhotoInput {...fieldControlProps("profilePhoto", { error: errors.profilePhoto, hintId: "profilePhoto-hint" })} name="profilePhoto" accept={ACCEPT} listLabel="Chosen profile photo" />
          </FormField>
        </div>
        {profile?.profileImageUrl ? (
          <div className="flex items-center gap-3">
            <img src={profile.profileImageUrl} alt="Your current profile photo" className="size-16 rounded-full object-cover" />
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="removeProfilePhoto" className="size-4 accent-[var(--primary-strong)]" />
              Remove current photo
            </label>
          </div>
        ) : null}
        <FormField id="bio" label="Bio" error={errors.bio}>
          <Textarea {...fieldControlProps("bio", { error: errors.bio })} name="bio" rows={5} defaultValue={profile?.bio} required maxLength={2000} placeholder="Tell clients about your experience and the work you do." />
        </FormField>
      </SectionCard>

      <SectionCard title="Professional Credentials">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="hourlyRateMin" label="Minimum Hourly Rate ($)" error={errors.hourlyRateMin}>
            <Input {...fieldControlProps("hourlyRateMin", { error: errors.hourlyRateMin })} name="hourlyRateMin" type="number" inputMode="decimal" min={0} step={0.01} defaultValue={dollars(profile?.hourlyRateMinCents ?? null)} />
          </FormField>
          <FormField id="hourlyRateMax" label="Maximum Hourly Rate ($)" error={errors.hourlyRateMax}>
            <Input {...fieldControlProps("hourlyRateMax", { error: errors.hourlyRateMax })} name="hourlyRateMax" type="number" inputMode="decimal" min={0} step={0.01} defaultValue={dollars(profile?.hourlyRateMaxCents ?? null)} />
          </FormField>
          <FormField id="yearsExperience" label="Years of Experience" error={errors.yearsExperience}>
            <Input {...fieldControlProps("yearsExperience", { error: errors.yearsExperience })} name="yearsExperience" type="number" inputMode="numeric" min={0} max={100} step={1} defaultValue={profile?.yearsExperience ?? ""} />
          </FormField>
          <FormField id="availability" label="Availability" error={errors.availability}>
            <Input {...fieldControlProps("availability", { error: errors.availability })} name="availability" defaultValue={profile?.availability ?? ""} placeholder="e.g. Weekdays 8am-5pm" maxLength={200} />
          </FormField>
          <FormField id="portfolioUrl" label="Portfolio URL" error={errors.portfolioUrl}>
            <Input {...fieldControlProps("portfolioUrl", { error: errors.portfolioUrl })} name="portfolioUrl" type="url" defaultValue={profile?.portfolioUrl ?? ""} placeholder="https://" maxLength={500} />
          </FormField>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField id="isInsured" label="Insured" error={errors.isInsured}>
            <NativeSelect {...fieldControlProps("isInsured", { error: errors.isInsured })} name="isInsured" defaultValue={profile?.isInsured ? "yes" : "no"}>
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </NativeSelect>
          </FormField>
          <FormField id="isBonded" label="Bonded" error={errors.isBonded}>
            <NativeSelect {...fieldControlProps("isBonded", { error: errors.isBonded })} name="isBonded" defaultValue={profile?.isBonded ? "yes" : "no"}>
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </NativeSelect>
          </FormField>
          <FormField id="isLicensed" label="Licensed" error={errors.isLicensed}>
            <NativeSelect {...fieldControlProps("isLicensed", { error: errors.isLicensed })} name="isLicensed" defaultValue={profile?.isLicensed ?? "not_required"}>
              <option value="yes">Yes</option>
              <option value="no">No</option>
              <option value="not_required">Not Required</option>
            </NativeSelect>
          </FormField>
        </div>
        {profile ? (
          <p className="text-sm text-muted-foreground">
            Clients see these as self-reported until an operator checks a proof:{" "}
            <a href="#credentials" className="underline">
              upload proof of a credential
            </a>
            .
          </p>
        ) : null}
      </SectionCard>

      <SectionCard title="Work Photos" description={`Show past work: up to ${MAX_WORK_PHOTOS} photos, JPEG, PNG or WebP, up to 5 MB each.`}>
        {profile && profile.workPhotos.length > 0 ? (
          <ul aria-label="Current work photos" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {profile.workPhotos.map((url, i) => (
              <li key={url} className="grid gap-1">
                <img src={url} alt={`Work photo ${i + 1}`} className="aspect-square w-full rounded-md object-cover" />
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="keepWorkPhotos" value={url} defaultChecked className="size-4 accent-[var(--primary-strong)]" />
                  Keep
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <FormField id="workPhotos" label="Add Work Photos" error={errors.workPhotos}>
          <PhotoInput {...fieldControlProps("workPhotos", { error: errors.workPhotos })} name="workPhotos" accept={ACCEPT} multiple listLabel="Chosen work photos" />
        </FormField>
      </SectionCard>

      <SectionCard title="Select Categories" description="Choose every service you offer.">
        <fieldset aria-describedby={errors.categoryIds ? "categoryIds-error" : undefined} data-invalid={errors.categoryIds ? true : undefined}>
          <legend className="sr-only">Categories</legend>
          <CategoryChecklist categories={categories} selected={selected} label="Categories list" />
        </fieldset>
        <FieldMessage id="categoryIds" error={errors.categoryIds} />
      </SectionCard>

      <SectionCard title="Verifiable References" description="Clients can ask to contact your references; you decide who gets their details.">
        <ol className="grid gap-4">
          {references.map((ref, index) => (
            <li key={ref.key} className="grid gap-4 rounded-md border p-4">
              <div className="flex items-center justify-between">
                <h3 className="font-medium">Reference {index + 1}</h3>
                {references.length > 1 ? (
                  <Button type="button" variant="ghost" size="sm" onClick={() => setReferences((all) => all.filter((r) => r.key !== ref.key))}>
                    <Trash2 aria-hidden="true" />
                    Remove<span className="sr-only"> reference {index + 1}</span>
                  </Button>
                ) : null}
              </div>
              {ref.id ? <input type="hidden" name={`references.${index}.id`} value={ref.id} /> : null}
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField id={`references.${index}.name`} label="Reference Name" error={errors[`references.${index}.name`]}>
                  <Input {...fieldControlProps(`references.${index}.name`, { error: errors[`references.${index}.name`] })} name={`references.${index}.name`} defaultValue={ref.name} required={index === 0} maxLength={100} />
                </FormField>
                <FormField id={`references.${index}.email`} label="Reference Email" error={errors[`references.${index}.email`]}>
                  <Input {...fieldControlProps(`references.${index}.email`, { error: errors[`references.${index}.email`] })} name={`references.${index}.email`} type="email" defaultValue={ref.email} required={index === 0} maxLength={255} />
                </FormField>
                <FormField id={`references.${index}.phone`} label="Reference Contact Number" error={errors[`references.${index}.phone`]}>
                  <Input {...fieldControlProps(`references.${index}.phone`, { error: errors[`references.${index}.phone`] })} name={`references.${index}.phone`} type="tel" defaultValue={ref.phone ?? ""} maxLength={30} />
                </FormField>
                <FormField id={`references.${index}.projectDescription`} label="Project Description" error={errors[`references.${index}.projectDescription`]}>
                  <Input {...fieldControlProps(`references.${index}.projectDescription`, { error: errors[`references.${index}.projectDescription`] })} name={`references.${index}.projectDescription`} defaultValue={ref.projectDescription ?? ""} maxLength={500} />
                </FormField>
              </div>
            </li>
          ))}
        </ol>
        <div>
          <Button type="button" variant="outline" onClick={() => setReferences((all) => [...all, newBlock()])}>
            <Plus aria-hidden="true" />
            Add Another Reference
          </Button>
        </div>
      </SectionCard>

      <div className="grid gap-1">
        <div className="flex items-center gap-2">
          <Checkbox
            id="acceptTerms"
            name="acceptTerms"
            defaultChecked={profile !== null}
            aria-invalid={errors.acceptTerms ? true : undefined}
            aria-describedby={errors.acceptTerms ? "acceptTerms-error" : undefined}
          />
          <Label htmlFor="acceptTerms" className="font-normal">
            <span>
              I agree to the{" "}
              <a href="/terms" target="_blank" rel="noopener noreferrer" className="text-primary-strong underline underline-offset-4">
                Terms of Service
              </a>{" "}
              and{" "}
              <a href="/privacy" target="_blank" rel="noopener noreferrer" className="text-primary-strong underline underline-offset-4">
                Privacy Policy
              </a>
            </span>
          </Label>
        </div>
        <FieldMessage id="acceptTerms" error={errors.acceptTerms} />
      </div>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {profile ? (busy ? "Saving..." : "Save Changes") : busy ? "Creating Profile..." : "Create Digger Profile"}
        </Button>
        <Button asChild variant="outline">
          <Link to="/">Cancel</Link>
        </Button>
      </div>
    </Form>
  );
}
