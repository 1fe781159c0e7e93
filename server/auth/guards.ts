/**
 * The one place loaders and actions ask for access: a signed-in user, optionally of one
 * type, optionally with a digger profile. A failed check throws a redirect carrying the
 * spec's message as a flash toast.
 */
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import type { SessionUser } from "#app/lib/user.ts";
import type { UserType } from "#core/auth-schemas.ts";
import { diggerProfiles } from "../db/schema.ts";
import { redirectWithFlash } from "../flash.ts";

interface Denial {
  message: string;
  redirectTo: string;
}

export interface AccessRule {
  /** Where a visitor goes; defaults to /auth with a redirect back here. */
  signedOut?: Partial<Denial>;
  userType?: { type: UserType } & Denial;
  diggerProfile?: Denial;
}

export async function requireUser(context: AppLoadContext, request: Request, rule: AccessRule = {}): Promise<SessionUser> {
  const { user } = await context.session();
  const config = context.services.config;
  if (!user) {
    const url = new URL(request.url);
    const back = `/auth?redirect=${encodeURIComponent(url.pathname + url.search)}`;
    throw await redirectWithFlash(
      config,
      rule.signedOut?.redirectTo ?? back,
      "error",
      rule.signedOut?.message ?? "Please sign in to continue",
    );
  }
  if (rule.userType && user.userType !== rule.userType.type) {
    throw await redirectWithFlash(config, rule.userType.redirectTo, "error", rule.userType.message);
  }
  return user;
}

/** A signed-in digger with a profile; returns the user and the profile's id. */
export async function requireDigger(
  context: AppLoadContext,
  request: Request,
  rule: AccessRule & { userType: { type: "digger" } & Denial; diggerProfile: Denial },
): Promise<{ user: SessionUser; diggerId: string }> {
  const user = await requireUser(context, request, rule);
  const [profile] = await context.services.db
    .select({ id: diggerProfiles.id })
    .from(diggerProfiles)
    .where(eq(diggerProfiles.userId, user.id));
  if (!profile) {
    throw await redirectWithFlash(context.services.config, rule.diggerProfile.redirectTo, "error", rule.diggerProfile.message);
  }
  return { user, diggerId: profile.id };
}
