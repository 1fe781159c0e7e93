/**
 * The guards of signed-in pages: a signed-in user, optionally of one type, optionally with a
 * digger profile, as an area's `AccessRule` says (the rules live in each area's access.ts). A
 * failed check throws an `AppError` that sends the browser on with the spec's message as a
 * flash toast (server/web/respond.ts).
 *
 * Not the only access check yet (issue 31 asks for one): the operator console has its own
 * guard (ops/access.ts, `requireOperator`); what is open to everyone reads `context.session()`
 * itself (the root's header, the gig and profile pages, checkout, /auth, /verify-email, a
 * credential's document, the contact form); and operations check ownership in their own
 * queries (a gig's owner, a purchase's digger).
 */
import { eq } from "drizzle-orm";
import type { SessionUser } from "#core/session-user.ts";
import type { UserType } from "#core/auth-schemas.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { RequestContext } from "../services.ts";

interface Denial {
  message: string;
  /** Where to send the browser; without it the request is refused where it stands (a 403 on an action). */
  redirectTo?: string;
}

export interface AccessRule {
  /** Where a visitor goes; defaults to /auth with a redirect back here. */
  signedOut?: Partial<Denial>;
  userType?: { type: UserType } & Denial;
  diggerProfile?: Denial;
}

export async function requireUser(context: RequestContext, request: Request, rule: AccessRule = {}): Promise<SessionUser> {
  const { user } = await context.session();
  if (!user) {
    const url = new URL(request.url);
    const back = `/auth?redirect=${encodeURIComponent(url.pathname + url.search)}`;
    throw new AppError("unauthenticated", rule.signedOut?.message ?? "Please sign in to continue", {
      redirectTo: rule.signedOut?.redirectTo ?? back,
    });
  }
  if (rule.userType && user.userType !== rule.userType.type) {
    throw new AppError("forbidden", rule.userType.message, { redirectTo: rule.userType.redirectTo });
  }
  return user;
}

/** The id of user `userId`'s digger profile, or null (a consumer, or a digger who has not made one). */
export async function diggerProfileIdOf(db: Database, userId: string): Promise<string | null> {
  const [profile] = await db.select({ id: diggerProfiles.id }).from(diggerProfiles).where(eq(diggerProfiles.userId, userId));
  return profile?.id ?? null;
}

/** A signed-in digger with a profile; returns the user and the profile's id. */
export async function requireDigger(
  context: RequestContext,
  request: Request,
  rule: AccessRule & { userType: { type: "digger" } & Denial; diggerProfile: Denial },
): Promise<{ user: SessionUser; diggerId: string }> {
  const user = await requireUser(context, request, rule);
  const diggerId = await diggerProfileIdOf(context.services.db, user.id);
  if (!diggerId) throw new AppError("forbidden", rule.diggerProfile.message, { redirectTo: rule.diggerProfile.redirectTo });
  return { user, diggerId };
}
