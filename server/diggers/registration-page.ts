/**
 * /digger-registration as operations (decision 0044): the page (the profile form and the
 * credential proofs), the profile saved, and a credential's proof sent (at ?proof). Both forms
 * carry files: the route reads them with `readProfileForm`, after the access rule.
 */
import { diggerFormValues } from "#core/digger-schemas.ts";
import { defineOperation } from "../operation.ts";
import { CREDENTIAL_PROOF_UPLOAD, PROFILE_FORM_PAGE, PROFILE_FORM_SAVE } from "./access.ts";
import { credentialProofSchema, ownCredentialDocuments, uploadCredentialProof } from "./credential-documents.ts";
import { profileFormPage } from "./profile-form.ts";
import { profileFormSchema } from "./profile-input.ts";
import { saveDiggerProfile } from "./save-profile.ts";

export const diggerRegistrationPage = defineOperation({
  access: PROFILE_FORM_PAGE,
  async run({ services: { db }, user }) {
    const [page, proofs] = await Promise.all([profileFormPage(db, user.id), ownCredentialDocuments(db, user.id)]);
    return { ...page, proofs };
  },
});

/** The profile form: created or updated; says which, and its id. */
export const saveRegistrationProfile = defineOperation({
  access: PROFILE_FORM_SAVE,
  input: profileFormSchema,
  // Categories repeated, references numbered: core's reading of the form.
  fields: diggerFormValues,
  run: ({ services, user, input, form }) => saveDiggerProfile(services, user.id, input, form ?? new FormData()),
});

/** A credential's proof, for a digger who has a profile. */
export const sendCredentialProof = defineOperation({
  access: CREDENTIAL_PROOF_UPLOAD,
  input: credentialProofSchema,
  async run({ services, diggerId, input }) {
    return { ...(await uploadCredentialProof(services, diggerId, input)), intent: "proof" as const };
  },
});
