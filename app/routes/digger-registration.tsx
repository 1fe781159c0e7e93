import { PageHeader } from "#app/components/page-header.tsx";
import { DiggerProfileForm } from "#app/features/diggers/profile-form.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { CredentialProofs } from "#app/features/diggers/credential-proofs.tsx";
import { requireDigger, requireUser } from "#server/auth/guards.ts";
import { CREDENTIAL_PROOF_UPLOAD, PROFILE_FORM_PAGE, PROFILE_FORM_SAVE } from "#server/diggers/access.ts";
import { ownCredentialDocuments, uploadCredentialProof } from "#server/diggers/credential-documents.ts";
import { readProfileForm } from "#server/diggers/profile-input.ts";
import { profileFormPage } from "#server/diggers/profile-form.ts";
import { saveDiggerProfile } from "#server/diggers/save-profile.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { runLoader, runAction } from "#server/web/respond.ts";
import type { Route } from "./+types/digger-registration";

export const meta = () => pageMeta("Create Your Digger Profile", "Build your public digger profile: services, rates, credentials and references.");

export async function loader({ request, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const user = await requireUser(context, request, PROFILE_FORM_PAGE);
    const [page, proofs] = await Promise.all([profileFormPage(context.services.db, user.id), ownCredentialDocuments(context.services.db, user.id)]);
    return { ...page, proofs };
  });
}

/** Two forms: the profile, and (at ?proof) the proof of a credential, for a digger who has a profile. */
export async function action({ request, context }: Route.ActionArgs) {
  if (new URL(request.url).searchParams.has("proof")) {
    return runAction(
      context,
      async () => {
        const { diggerId } = await requireDigger(context, request, CREDENTIAL_PROOF_UPLOAD);
        const uploaded = await uploadCredentialProof(context.services, diggerId, await readProfileForm(request));
        return { ...uploaded, intent: "proof" as const };
      },
      { intent: "proof" as const },
    );
  }
  return runAction(context, async () => {
    const user = await requireUser(context, request, PROFILE_FORM_SAVE);
    const saved = await saveDiggerProfile(context.services, user.id, request);
    const message = saved.created ? "Profile created successfully!" : "Profile updated successfully!";
    return redirectWithFlash(context.services.config, `/digger/${saved.diggerId}`, "success", message);
  });
}

export default function DiggerRegistration({ loaderData, actionData }: Route.ComponentProps) {
  const proofResult = actionData && "intent" in actionData && actionData.intent === "proof" ? actionData : undefined;
  const profileResult = actionData && !("intent" in actionData) ? actionData : undefined;
  useActionToast(profileResult);
  const { profile, categories, proofs } = loaderData;
  return (
    <div className="mx-auto max-w-3xl">
      {profile ? (
        <PageHeader title="Edit Your Digger Profile" subtitle="Keep your profile up to date. Only your handle is shown publicly." />
      ) : (
        <PageHeader title="Create Your Digger Profile" subtitle="Tell clients what you do. Only your handle is shown publicly." />
      )}
      <DiggerProfileForm categories={categories} profile={profile} serverErrors={inlineErrors(profileResult)} />
      {profile ? <CredentialProofs proofs={proofs} result={proofResult} /> : null}
    </div>
  );
}
