/**
 * The shapes of digger data as the pages receive it. The server builds them (public ones
 * from public columns only); the browser renders them. Types only.
 */
import type { CredentialKind } from "./credentials.ts";
import type { LicenseValue } from "./digger-schemas.ts";

/** Fields a digger fills in and everyone may see. */
interface DiggerPublicFields {
  handle: string;
  location: string;
  profession: string;
  profileImageUrl: string | null;
  hourlyRateMinCents: number | null;
  hourlyRateMaxCents: number | null;
  yearsExperience: number | null;
}

/** A Browse Talent card. */
export interface DiggerCardData extends DiggerPublicFields {
  id: string;
  averageRating: number;
  totalRatings: number;
  verified: boolean;
  /** Category names, sub-categories first, then alphabetical. */
  categories: string[];
  /** 'Usually responds within …' (core/response-time.ts), or null: not measured. */
  responseTime: string | null;
  /** 'Kept {k} of {n} visits' (core/kept-visits.ts `keptVisitsLine`), or null: fewer than 3 counted. */
  keptVisits: string | null;
}

/** The signed-in digger's own profile, private fields included, as the edit form shows it. */
export interface OwnDiggerProfile extends DiggerPublicFields {
  id: string;
  businessName: string;
  phone: string;
  bio: string;
  portfolioUrl: string | null;
  availability: string | null;
  isInsured: boolean;
  isBonded: boolean;
  isLicensed: LicenseValue;
  workPhotos: string[];
  categoryIds: string[];
  references: Array<{ id: string; name: string; email: string; phone: string | null; projectDescription: string | null }>;
}

export interface CategoryGroup {
  id: string;
  name: string;
  children: Array<{ id: string; name: string }>;
}

export type ContactStatus = "none" | "pending" | "approved" | "rejected";

export interface PublicReference {
  id: string;
  name: string;
  projectDescription: string | null;
  isVerified: boolean;
  /** The viewing client's request for this reference's contact. */
  status: ContactStatus;
  /** Only when the status is approved. */
  email: string | null;
  phone: string | null;
}

/** /digger/{id}: never the full name, business name, phone or e-mail. */
export interface PublicDiggerProfile extends DiggerPublicFields {
  id: string;
  bio: string;
  portfolioUrl: string | null;
  availability: string | null;
  averageRating: number;
  totalRatings: number;
  verified: boolean;
  isInsured: boolean;
  isBonded: boolean;
  isLicensed: LicenseValue;
  /** Credentials an operator checked from a proof, still within their date (core/credentials.ts). */
  verifiedCredentials: Array<{ credential: CredentialKind; verifiedOn: string }>;
  /** 'Hired on N% of leads' once the digger bought five leads, else null (core/reviews.ts). */
  hireRate: string | null;
  /** 'Usually responds within …' (core/response-time.ts), or null: not measured. */
  responseTime: string | null;
  /** 'Kept {k} of {n} visits' (core/kept-visits.ts `keptVisitsLine`), or null: fewer than 3 counted. */
  keptVisits: string | null;
  workPhotos: string[];
  skills: string[];
  categories: string[];
}
