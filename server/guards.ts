/**
 * The access rules, one family (docs/decisions/0044-one-shape-per-operation.md): values that say
 * who may run an operation, each an `Access` (server/operation.ts) that the route adapter
 * applies before the operation runs.
 * - `anyone`: everyone; the operation learns the signed-in user, if any.
 * - `everyoneAlike`: everyone, and the session is not read (an answer the same for all).
 * - `signedIn(denials)`: a signed-in user, optionally of one type (`denials.userType`).
 * - `digger(denials)`: a signed-in digger with a profile; the operation learns its id.
 * - `operator`: the operator console's rule (users.operator_since, two-factor in production);
 *   everyone else gets the 404 page.
 * The denials (`Denials`) carry the spec's message and destination for each refusal; a
 * refusal throws an `AppError` that sends the browser on with the message as a flash toast
 * (server/web/respond.ts). Each area keeps its rules in its access.ts.
 *
 * Operations still check what a rule cannot: ownership, in their own queries (a gig's owner, a
 * purchase's digger). No route applies a rule by hand: the route adapter (server/web/operations.ts)
 * applies each page's.
 */
import type { SessionUser } from "#core/session-user.ts";
import type { UserType } from "#core/sign-in-schemas.ts";
import type { Config } from "./config.ts";
import { AppError } from "./errors.ts";
import type { Logger } from "./logger.ts";
import type { Access, Params } from "./operation.ts";
import type { RequestContext } from "./context.ts";
import { ownFigures } from "./own-figures.ts";

interface Denial {
  message: string;
  /** Where to send the browser; without it the request is refused where it stands (a 403 on an action). */
  redirectTo?: string;
}

/** What each refusal of a signed-in rule says, and where it sends the browser. */
export interface Denials {
  /** Where a visitor goes; defaults to /auth with a redirect back here. */
  signedOut?: Partial<Denial>;
  userType?: { type: UserType } & Denial;
  diggerProfile?: Denial;
}

type DenialsOf<D> = D | ((params: Params) => D);

function denialsFor<D>(denials: DenialsOf<D>, params: Params): D {
  return typeof denials === "function" ? (denials as (params: Params) => D)(params) : denials;
}

async function signedInUser(context: RequestContext, url: URL, rule: Denials): Promise<SessionUser> {
  const { user } = await context.session();
  if (!user) {
    // The page's address, not the request's: a client navigation's is /page.data?_routes=….
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

/** Everyone; the operation learns who is signed in, if anyone. */
export const anyone: Access<{ user: SessionUser | null }> = {
  async resolve(context) {
    const { user } = await context.session();
    return { user };
  },
};

/**
 * Everyone, and the session is not even read: for an answer no session changes (/sitemap.xml).
 * A request whose session is read is answered `private, no-store` (security/private-responses.ts);
 * this one keeps its own caching. The operation learns nothing of its caller.
 */
export const everyoneAlike: Access<object> = {
  async resolve() {
    return {};
  },
};

/** A signed-in user (of `denials.userType`'s type, when given). */
export function signedIn(denials: DenialsOf<Denials> = {}): Access<{ user: SessionUser }> {
  return {
    async resolve(context, { url, params }) {
      return { user: await signedInUser(context, url, denialsFor(denials, params)) };
    },
  };
}

type DiggerDenials = Denials & { userType: { type: "digger" } & Denial; diggerProfile: Denial };

/** A signed-in digger with a profile; the operation learns the profile's id. */
export function digger(denials: DenialsOf<DiggerDenials>): Access<{ user: SessionUser; diggerId: string }> {
  return {
    async resolve(context, route) {
      const rule = denialsFor(denials, route.params);
      const user = await signedInUser(context, route.url, rule);
      // The header's statement (own-figures.ts), read once for the page's loaders.
      const { profileId: diggerId } = await ownFigures(context.services.db, route.request, user.id);
      if (!diggerId) throw new AppError("forbidden", rule.diggerProfile.message, { redirectTo: rule.diggerProfile.redirectTo });
      return { user, diggerId };
    },
  };
}

/**
 * The request's own parts an operation may need besides its caller: the client's address (a
 * rate limit), the request's logger, the session's id, the browser's user agent (a push
 * device) and the session's cookies Better Auth refreshed (sliding expiry; the root's
 * operation hands them back to be set on the response). Better Auth's API is not one of them:
 * every operation has it as `authApi`.
 */
export interface RequestParts {
  clientIp: string;
  logger: Logger;
  sessionId: string | undefined;
  userAgent: string | null;
  /** Set-Cookie values, never page data. */
  sessionCookies: string[];
}

/** `rule`, and the operation also learns the request's parts (`RequestParts`). */
export function withRequest<A>(rule: Access<A>): Access<A & RequestParts> {
  return {
    async resolve(context, route) {
      const caller = await rule.resolve(context, route);
      const { sessionId, setCookies } = await context.session();
      return {
        ...caller,
        clientIp: context.clientIp,
        logger: context.logger,
        sessionId,
        userAgent: route.request.headers.get("user-agent"),
        sessionCookies: setCookies,
      };
    },
  };
}

/**
 * The forms of a signed-in user's own account (/account's: its password, two-factor, e-mail,
 * How to reach me, lead alerts, push devices, deletion): a visitor is sent to sign in and back;
 * the operation learns the request's parts. Each form's operation lives in the area that does
 * its work (sign-in, privacy, reach, alerts, push); the rule they share stands here, not in
 * server/account/, which reads those areas for the page (no two areas import each other).
 */
export const ACCOUNT_FORM = withRequest(signedIn());

const OPS_TWO_FACTOR_REQUIRED = "Turn on two-factor authentication to open the operator console.";

export interface Operator extends SessionUser {
  operator: true;
}

/** Whether `user` may act as an operator now: the console's rule (two-factor on in production). */
export function actsAsOperator(config: Pick<Config, "mode">, user: SessionUser | null): user is Operator {
  return Boolean(user?.operator) && (config.mode !== "production" || Boolean(user?.twoFactorEnabled));
}

/**
 * The operator console (/ops): an operator (users.operator_since, granted only by `npm run
 * operator`), and in production only with two-factor authentication on. Everyone else, signed
 * in or not, gets the 404 page: the console does not admit that it exists
 * (docs/decisions/0026-operator-console.md).
 */
export const operator: Access<{ user: Operator }> = {
  async resolve(context) {
    const { user } = await context.session();
    if (!user?.operator) throw new AppError("not_found", "Page not found");
    if (!actsAsOperator(context.services.config, user)) {
      // The operator already knows the console exists: tell them what opens it.
      throw new AppError("forbidden", OPS_TWO_FACTOR_REQUIRED, { redirectTo: "/account" });
    }
    return { user };
  },
};
