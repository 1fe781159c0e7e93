/** Who may use the digger pages, with the spec's message and destination for everyone else. */
import { digger, signedIn } from "../guards.ts";

const DIGGERS_ONLY = { type: "digger", message: "Only diggers can access this page", redirectTo: "/" } as const;
const REGISTRATION_SIGN_IN = "/auth?type=digger&redirect=%2Fdigger-registration";

/** /digger-registration, the page: a visitor signs in (or up) as a digger first. */
export const PROFILE_FORM_PAGE = signedIn({
  signedOut: { redirectTo: REGISTRATION_SIGN_IN },
  userType: DIGGERS_ONLY,
});

/** /digger-registration, the form sent. */
export const PROFILE_FORM_SAVE = signedIn({
  signedOut: { message: "Not authenticated", redirectTo: REGISTRATION_SIGN_IN },
  userType: DIGGERS_ONLY,
});

/** /digger-registration?proof, the proof of a credential sent: a digger with a profile. */
export const CREDENTIAL_PROOF_UPLOAD = digger({
  signedOut: { message: "Not authenticated", redirectTo: REGISTRATION_SIGN_IN },
  userType: DIGGERS_ONLY,
  diggerProfile: { message: "Please complete your digger profile first", redirectTo: "/digger-registration" },
});

/** /reference-requests: a digger with a profile. */
export const REFERENCE_REQUESTS = digger({
  userType: DIGGERS_ONLY,
  diggerProfile: { message: "Please complete your digger profile first", redirectTo: "/digger-registration" },
});

/** Asking, on /digger/{id}, for one of its references' contact: clients only. */
export const REFERENCE_CONTACT = signedIn((params) => {
  // Encoded: the id comes from the address as typed, and a redirect's Location must stay ASCII.
  const page = `/digger/${encodeURIComponent(params.id ?? "")}`;
  return {
    signedOut: { message: "Please sign in to request reference contact", redirectTo: `/auth?redirect=${encodeURIComponent(page)}` },
    userType: { type: "consumer", message: "Only consumers can request reference contacts", redirectTo: page },
  };
});

/** Replying, on /digger/{id}, to a review: the profile's own digger (checked by the operation). */
export const REVIEW_REPLY = signedIn({ signedOut: { message: "Please sign in to reply" } });

/** Reporting, on /digger/{id}, a review: any signed-in user (the digger too), once per review. */
export const REVIEW_REPORT = signedIn({ signedOut: { message: "Please sign in to report a review" } });
