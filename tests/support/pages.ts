/** Every screen of the spec (section 2) with the heading it shows, for route and browser tests. */
export const specPages: Array<[path: string, heading: string]> = [
  ["/", "Digs & Gigs"],
  ["/auth", "Digs & Gigs"],
  ["/auth?type=digger", "Digger Portal"],
  ["/auth?redirect=/post-gig", "Post a Gig"],
  ["/digger-registration", "Create Your Digger Profile"],
  ["/post-gig", "Post a Gig"],
  ["/browse-diggers", "Browse Talent"],
  ["/browse-gigs", "Browse Gigs"],
  ["/my-leads", "My Leads"],
  ["/my-gigs", "My Gigs"],
  ["/contact", "Contact Us"],
  ["/how-it-works", "How It Works"],
  ["/terms", "Terms of Service"],
  ["/privacy", "Privacy Policy"],
];
