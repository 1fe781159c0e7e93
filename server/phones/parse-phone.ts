/**
 * A phone number as the client typed it, read with libphonenumber-js's full metadata (its
 * types need it): E.164 when it is a valid number that can receive text messages, else null.
 * Premium-rate, shared-cost, toll-free and VoIP numbers are refused: texts to them cost or
 * never arrive, and they are what SMS pumping sends to. A number typed without +country is
 * read in DEFAULT_PHONE_COUNTRY's plan (server/config.ts).
 */
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/max";

const REFUSED_TYPES = new Set(["PREMIUM_RATE", "SHARED_COST", "TOLL_FREE", "VOIP"]);

export interface ParsedPhone {
  /** '+15125550123'. */
  e164: string;
  /**
   * The country the number belongs to ('US'; 'JM' for +1 876): texts go only to SMS_COUNTRIES, and
   * the daily cap counts per country (a calling code such as +1 spans some twenty countries).
   * Null for a number of no country (non-geographic).
   */
  country: string | null;
  /** As a reader writes it: '+1 512 555 0123'. */
  international: string;
}

export function parsePhone(input: string, defaultCountry: CountryCode): ParsedPhone | null {
  const phone = parsePhoneNumberFromString(input.trim(), defaultCountry);
  if (!phone?.isValid()) return null;
  const type = phone.getType();
  if (type !== undefined && REFUSED_TYPES.has(type)) return null;
  return { e164: phone.number, country: phone.country ?? null, international: phone.formatInternational() };
}

/**
 * A stored number as a reader writes it: E.164 formatted, a free-text number of before as it is
 * (one typed with '+' and spaces or parentheses too: it is shown as its client typed it).
 */
export function displayPhone(stored: string): string {
  const phone = /^\+[1-9]\d{6,14}$/.test(stored) ? parsePhoneNumberFromString(stored) : undefined;
  return phone?.isValid() ? phone.formatInternational() : stored;
}
