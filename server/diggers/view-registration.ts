/**
 * /digger-registration, the page: the profile form (new, or the digger's own) and the
 * credential proofs sent. Its forms: save-profile.ts and send-credential-proof.ts.
 */
import { credentialStatusText } from "#core/credentials.ts";
import { formatDate } from "#core/dates.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { PROFILE_FORM_PAGE } from "./access.ts";
import { ownCredentialDocuments } from "./credential-documents.ts";
import { profileFormPage } from "./profile-form.ts";

export const diggerRegistrationPage = defineOperation({
  access: PROFILE_FORM_PAGE,
  async run({ services: { db, config }, user }) {
    const [page, documents] = await Promise.all([profileFormPage(db, user.id), ownCredentialDocuments(db, user.id)]);
    // Each proof's texts, written here in the digger's zone (issue 47); the stated expiry is a calendar day.
    const time = readerTime(user.timeZone, config);
    const proofs = documents.map((proof) => ({
      ...proof,
      statusText: credentialStatusText(proof, time.date),
      detailText: `No. ${proof.number}, expires ${formatDate(proof.statedExpiry)}; sent ${time.date(proof.createdAt)}. `,
    }));
    return { ...page, proofs };
  },
});
