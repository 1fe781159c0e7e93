/** Valid form submissions for tests, to change one field at a time. */
import { randomUUID } from "node:crypto";

/** A valid post-gig form (unique title) under `categoryId`, with any fields replaced. */
export function validGigForm(categoryId: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    acceptTerms: "on",
    title: `Fix the garden fence ${randomUUID().slice(0, 8)}`,
    description: "Three panels of the back fence blew down in the storm and need replacing with matching ones.",
    location: "Denver, CO",
    timeline: "Within 2 weeks",
    budgetMin: "800",
    budgetMax: "1500",
    categoryId,
    maxDiggers: "3",
    deadline: "",
    contactPreferences: "Text after 5pm",
    ...over,
  };
}

/** A valid digger registration (unique handle) in `categoryId`, only the required fields, with any replaced. */
export function validDiggerForm(categoryId: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    acceptTerms: "on",
    handle: `pro_${randomUUID().slice(0, 8)}`,
    businessName: "Photo Test LLC",
    phone: "(555) 010-3333",
    location: "Austin, TX",
    profession: "Electrician",
    bio: "Wiring homes and small offices.",
    isInsured: "no",
    isBonded: "no",
    isLicensed: "no",
    categoryIds: categoryId,
    "references.0.name": "Rita Reference",
    "references.0.email": "rita@example.org",
    ...over,
  };
}
