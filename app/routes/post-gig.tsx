import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { DESCRIPTION_MAX, TITLE_MAX, todayIso } from "#core/gig-schema.ts";
import { DEFAULT_MAX_DIGGERS, MAX_DIGGERS, MIN_DIGGERS } from "#core/lead-spots.ts";
import { requireUser } from "#server/auth/guards.ts";
import { listTopLevelCategories } from "#server/categories.ts";
import { POST_GIG_FORM, POST_GIG_PAGE } from "#server/gigs/access.ts";
import { postGig } from "#server/gigs/post-gig.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { runLoader, runAction } from "#server/web/respond.ts";
import type { Route } from "./+types/post-gig";

const MAX_DIGGERS_HINT = "Fewer diggers means fewer calls for you and a better chance for each digger";
const DIGGER_CHOICES = Array.from({ length: MAX_DIGGERS - MIN_DIGGERS + 1 }, (_, i) => MIN_DIGGERS + i);

export const meta = () => pageMeta("Post a Gig", "Describe the work you need done and get discovered by local diggers. Posting is free.");

export async function loader({ request, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    await requireUser(context, request, POST_GIG_PAGE);
    return { categories: await listTopLevelCategories(context.services.db), today: todayIso() };
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  return runAction(context, async () => {
    const user = await requireUser(context, request, POST_GIG_FORM);
    await postGig(context.services, user.id, await request.formData());
    return redirectWithFlash(context.services.config, "/", "success", "Gig posted successfully!");
  });
}

export default function PostGig({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [descriptionLength, setDescriptionLength] = useState(0);
  useActionToast(actionData);
  const errors = inlineErrors(actionData);

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Post a Gig" subtitle="Describe your project. Posting is free for clients." />
      <Card>
        <CardContent className="pt-6">
          <Form method="post" noValidate className="grid gap-5">
            <FormField id="title" label="Project Title" error={errors.title}>
              <Input {...fieldControlProps("title", { error: errors.title })} name="title" required maxLength={TITLE_MAX} placeholder="e.g. Repaint a two-bedroom apartment" />
            </FormField>
            <FormField id="description" label="Project Description" error={errors.description}>
              <Textarea
                {...fieldControlProps("description", { error: errors.description, hintId: "description-count" })}
                name="description"
                required
                rows={6}
                maxLength={DESCRIPTION_MAX}
                onChange={(e) => setDescriptionLength(e.target.value.length)}
                placeholder="What needs doing, how big is it, anything a digger should know"
              />
              <p id="description-count" className="text-right text-xs text-muted-foreground">
                {`${descriptionLength}/${DESCRIPTION_MAX}`}
              </p>
            </FormField>
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField id="location" label="Location" error={errors.location}>
                <Input {...fieldControlProps("location", { error: errors.location })} name="location" required placeholder="City, State" />
              </FormField>
              <FormField id="timeline" label="Project Timeline" error={errors.timeline}>
                <Input {...fieldControlProps("timeline", { error: errors.timeline })} name="timeline" required placeholder="e.g. Within 2 weeks" />
              </FormField>
            </div>
            <FormField id="categoryId" label="Category" error={errors.categoryId}>
              <NativeSelect {...fieldControlProps("categoryId", { error: errors.categoryId })} name="categoryId" required defaultValue="">
                <option value="" disabled>
                  Select a category
                </option>
                {loaderData.categories.map((c) => (
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
                defaultValue={String(DEFAULT_MAX_DIGGERS)}
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
                <Input {...fieldControlProps("budgetMin", { error: errors.budgetMin })} name="budgetMin" type="number" min={0} step={1} inputMode="decimal" placeholder="500" />
              </FormField>
              <FormField id="budgetMax" label="Maximum Budget ($)" error={errors.budgetMax}>
                <Input {...fieldControlProps("budgetMax", { error: errors.budgetMax })} name="budgetMax" type="number" min={0} step={1} inputMode="decimal" placeholder="1500" />
              </FormField>
            </div>
            <FormField id="deadline" label="Project Deadline" error={errors.deadline}>
              <Input {...fieldControlProps("deadline", { error: errors.deadline })} name="deadline" type="date" min={loaderData.today} />
            </FormField>
            <FormField id="contactPreferences" label="Contact Preferences" error={errors.contactPreferences}>
              <Input {...fieldControlProps("contactPreferences", { error: errors.contactPreferences })} name="contactPreferences" placeholder="e.g. Text me after 5pm" />
            </FormField>
            <div className="grid gap-1">
              <div className="flex items-start gap-2">
                <Checkbox id="acceptTerms" name="acceptTerms" required className="mt-0.5" />
                <Label htmlFor="acceptTerms" className="inline font-normal leading-snug">
                  I agree to the{" "}
                  <a href="/terms" target="_blank" rel="noopener noreferrer" className="underline">
                    Terms of Service
                  </a>{" "}
                  and{" "}
                  <a href="/privacy" target="_blank" rel="noopener noreferrer" className="underline">
                    Privacy Policy
                  </a>
                </Label>
              </div>
              {errors.acceptTerms ? <p className="text-sm text-destructive">{errors.acceptTerms}</p> : null}
            </div>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={busy}>
                {busy ? "Posting..." : "Post Gig"}
              </Button>
              <Button asChild variant="outline">
                <Link to="/">Cancel</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
