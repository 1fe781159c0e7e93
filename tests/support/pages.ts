/** Every screen of the spec (section 2) that a visitor may see, with the heading it shows. */
export const specPages: Array<[path: string, heading: string]> = [
  ["/", "Digs & Gigs"],
  ["/auth", "Digs & Gigs"],
  ["/auth?type=digger", "Digger Portal"],
  ["/auth?redirect=/post-gig", "Post a Gig"],
  ["/browse-diggers", "Browse Talent"],
  ["/browse-gigs", "Browse Gigs"],
  ["/contact", "Contact Us"],
  ["/how-it-works", "How It Works"],
  ["/terms", "Terms of Service"],
  ["/privacy", "Privacy Policy"],
];

/** Screens that need a signed-in user, and where they send a visitor. */
export const signedInPages: Array<[path: string, redirect: string]> = [
  ["/post-gig", "/auth?redirect=/post-gig"],
  ["/my-gigs", "/auth?redirect=/my-gigs"],
  ["/digger-registration", "/auth?type=digger&redirect=%2Fdigger-registration"],
  ["/my-leads", "/auth?type=digger&redirect=/my-leads"],
  ["/account", "/auth?redirect=%2Faccount"],
  ["/verify-phone", "/auth?redirect=%2Fverify-phone"],
];
