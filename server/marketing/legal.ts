/**
 * What the Terms of Service and Privacy Policy pages show beyond their static text: the
 * contact addresses from configuration and the 'Last Updated' date (the spec: the current date).
 */
import type { Config } from "../config.ts";

export interface LegalPageData {
  legalEmail: string;
  privacyEmail: string;
  supportEmail: string;
  businessAddress: string;
  lastUpdated: { iso: string; text: string };
}

export function getLegalPageData(config: Config, now: Date = new Date()): LegalPageData {
  return {
    legalEmail: config.legalEmail,
    privacyEmail: config.privacyEmail,
    supportEmail: config.supportEmail,
    businessAddress: config.businessAddress,
    lastUpdated: legalDate(now),
  };
}

/**
 * A date as the legal pages show it ("June 5, 2025") and as a machine-readable date
 * ("2025-06-05"), both in the server's time zone. Formatted here, on the server, so the
 * page hydrates with the same text whatever the visitor's time zone.
 */
export function legalDate(date: Date): { iso: string; text: string } {
  const pad = (n: number) => String(n).padStart(2, "0");
  return {
    iso: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    text: new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" }).format(date),
  };
}
