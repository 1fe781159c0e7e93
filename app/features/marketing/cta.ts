/**
 * Where the marketing pages' calls to action lead (spec section 2). A visitor goes through
 * /auth, which sends them on to the target after signing in; a signed-in user goes straight there.
 */
export interface MarketingTargets {
  /** Find Talent */
  findTalent: string;
  /** Build My Digs, Create Your Dig, Become a Digger */
  becomeDigger: string;
  /** Post a Gig */
  postGig: string;
}

export function marketingTargets(signedIn: boolean): MarketingTargets {
  return signedIn
    ? { findTalent: "/browse-diggers", becomeDigger: "/digger-registration", postGig: "/post-gig" }
    : {
        findTalent: "/auth?redirect=/browse-diggers",
        becomeDigger: "/auth?type=digger&redirect=/digger-registration",
        postGig: "/auth?redirect=/post-gig",
      };
}
