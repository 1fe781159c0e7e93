import { PageHeader } from "#app/components/page-header.tsx";
import { DiggerProfileForm } from "#app/features/diggers/profile-form.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { loadDiggerProfileForm, saveDiggerProfile } from "#server/diggers/profile-form.ts";
import type { Route } from "./+types/digger-registration";

export const meta = () => pageMeta("Create Your Digger Profile", "Build your public digger profile: services, rates, credentials and references.");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadDiggerProfileForm(context, request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return saveDiggerProfile(context, request);
}

export default function DiggerRegistration({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData);
  const { profile, categories } = loaderData;
  return (
    <div className="mx-auto max-w-3xl">
      {profile ? (
        <PageHeader title="Edit Your Digger Profile" subtitle="Keep your profile up to date. Only your handle is shown publicly." />
      ) : (
        <PageHeader title="Create Your Digger Profile" subtitle="Tell clients what you do. Only your handle is shown publicly." />
      )}
      <DiggerProfileForm categories={categories} profile={profile} serverErrors={inlineErrors(actionData)} />
    </div>
  );
}
