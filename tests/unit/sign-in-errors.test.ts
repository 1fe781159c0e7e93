import { describe, expect, it } from "vitest";
import { cleanSignInErrorQuery, SIGN_IN_FAILED, signInErrorCode, signInErrorMessage } from "../../core/sign-in-errors.ts";

describe("signInErrorMessage", () => {
  it.each([
    ["access_denied", "Sign-in was cancelled."],
    ["state_mismatch", "Your sign-in expired or was started in another browser. Please try again."],
    ["account_not_linked", "An account with this e-mail already exists. Please sign in with your e-mail and password."],
    ["AGE_CONFIRMATION_REQUIRED", "Please confirm you are 18 or older on the Sign Up tab, then continue with your provider again."],
  ])("gives our own message for %s", (code, message) => {
    expect(signInErrorMessage(code)).toBe(message);
  });

  it("has a message of its own for every code Better Auth's OAuth callback produces", () => {
    const codes = [
      "state_not_found", "state_invalid", "no_code", "invalid_code", "issuer_missing", "issuer_mismatch", "nonce_binding_missing",
      "oauth_provider_not_found", "unable_to_get_user_info", "email_not_found", "email_not_verified", "unable_to_link_account",
      "email_does_not_match", "account_already_linked_to_different_user", "signup_disabled", "unable_to_create_user",
    ];
    for (const code of codes) expect(signInErrorMessage(code), code).not.toBe(SIGN_IN_FAILED);
  });

  it.each([
    "<script>alert(1)</script>Call 555-0100",
    "Your account is locked: call 555-0100",
    "ACCESS_DENIED",
    "internal_server_error",
    "",
    "constructor",
    "__proto__",
    "toString",
  ])("gives the generic message for %j, never the text itself", (code) => {
    expect(signInErrorMessage(code)).toBe("Sign-in failed. Please try again.");
  });

  it("gives nothing without an error", () => expect(signInErrorMessage(null)).toBeUndefined());
});

describe("/auth's query after a failed sign-in (issue 30, finding 12)", () => {
  const clean = (query: string) => cleanSignInErrorQuery(new URLSearchParams(query))?.toString() ?? null;

  it("keeps a known code and drops the description, whoever wrote it", () => {
    expect(clean("redirect=%2Fpost-gig&error=access_denied&error_description=Your+account+is+locked")).toBe("redirect=%2Fpost-gig&error=access_denied");
    expect(clean("error_description=Call+555-0100")).toBe("");
  });

  it("makes a code it does not know 'unknown', the generic message", () => {
    expect(clean("error=Your_account_is_locked")).toBe("error=unknown");
    expect(signInErrorCode("constructor")).toBe("unknown");
    expect(signInErrorMessage("unknown")).toBe(SIGN_IN_FAILED);
  });

  it("leaves a query with nothing to clean as it is", () => {
    for (const query of ["", "redirect=%2F", "error=state_mismatch", "error=unknown&type=digger"]) expect(clean(query), query).toBeNull();
  });
});
