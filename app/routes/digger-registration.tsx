import { PageHeader } from "#app/components/page-header.tsx";
import { DiggerProfileForm } from "#app/features/diggers/profile-form.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { CredentialProofs } from "#app/features/diggers/credential-proofs.tsx";
import { saveRegistrationProfile } from "#server/diggers/save-profile.ts";
import { sendCredentialProof } from "#server/diggers/send-credential-proof.ts";
import { diggerRegistrationPage } from "#server/diggers/view-registration.ts";
import { readProfileForm } from "#server/diggers/profile-input.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { serveAction, serveIntents, serveLoader, type FormReader } from "#server/web/operations.ts";
import type { Route } from "./+types/digger-registration";

export const meta = () => pageMeta("Create Your Digger Profile", "Build your public digger profile: services, rates, credentials and references.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, diggerRegistrationPage);
}

/** Both forms carry files: read once the access rule has let the caller in. */
const profileForm: FormReader = async ({ request }) => ({ form: await readProfileForm(request) });

/** Two forms: the profile, and (at ?proof) the proof of a credential, for a digger who has a profile. */
export async function action(args: Route.ActionArgs) {
  if (args.url.searchParams.has("proof")) {
    // The proof's form sends no intent: its answers, a failure's too, say "proof".
    return serveIntents(args, { "*": sendCredentialProof }, { readForm: profileForm, echo: () => ({ intent: "proof" as const }) });
  }
  return serveAction(
    args,
    saveRegistrationProfile,
    (saved) => {
      const message = saved.created ? "Profile created successfully!" : "Profile updated successfully!";
      return redirectWithFlash(args.context.services.config, saved.next, "success", message);
    },
    { readForm: profileForm },
  );
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
