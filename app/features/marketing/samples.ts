/**
 * The landing page's sample featured diggers and recent gigs (spec section 2), shown only
 * while the database has no digger profiles or no open gigs. They link nowhere and are
 * labelled as examples on the page.
 */
import type { ShowcaseDigger, ShowcaseGig } from "./showcase.tsx";

export const sampleDiggers: ShowcaseDigger[] = [
  {
    key: "sample-digger-1",
    name: "oak_and_iron_builds",
    profession: "General Contractor",
    expertise: ["Kitchen Remodeling", "Bathroom Remodeling", "Carpentry"],
    rating: 4.9,
    reviewCount: 127,
    imageUrl: null,
    href: null,
  },
  {
    key: "sample-digger-2",
    name: "pixel_pine_web",
    profession: "Full-Stack Web Developer",
    expertise: ["Website Development", "E-commerce Development", "API Integrations"],
    rating: 4.8,
    reviewCount: 89,
    imageUrl: null,
    href: null,
  },
  {
    key: "sample-digger-3",
    name: "greenleaf_gardens",
    profession: "Landscape Designer",
    expertise: ["Garden Design", "Lawn Care", "Hardscaping"],
    rating: 5.0,
    reviewCount: 64,
    imageUrl: null,
    href: null,
  },
];

export const sampleGigs: ShowcaseGig[] = [
  {
    key: "sample-gig-1",
    title: "Kitchen renovation in a two-bedroom condo",
    description:
      "Looking to replace cabinets, countertops and the backsplash, and move the sink to the island. Appliances are already bought; we need design help and a crew to do the work.",
    budgetMinCents: 1_500_000,
    budgetMaxCents: 2_500_000,
    timeline: "Start within 2 months",
    category: "Kitchen Remodeling",
    purchases: 8,
    href: null,
  },
  {
    key: "sample-gig-2",
    title: "Online store for a neighborhood bakery",
    description:
      "We want customers to order cakes and pastries for pickup. About 40 products, card payments, and a simple way for staff to mark orders as ready.",
    budgetMinCents: 300_000,
    budgetMaxCents: null,
    timeline: "Within 6 weeks",
    category: "E-commerce Development",
    purchases: 5,
    href: null,
  },
  {
    key: "sample-gig-3",
    title: "Spring cleanup and weekly lawn mowing",
    description:
      "Quarter-acre back yard needs leaves cleared, beds edged and mulched, then weekly mowing through the summer. Equipment must be your own.",
    budgetMinCents: null,
    budgetMaxCents: 80_000,
    timeline: "Next two weeks",
    category: "Lawn Care",
    purchases: 3,
    href: null,
  },
];
