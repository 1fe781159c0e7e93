/** The spec's display rules for diggers (section 2 and 9): avatar, handle, rating, badges. */
import { formatMoney } from "./money.ts";

/** Cards show at most this many category badges, then a +N count. */
const MAX_CARD_BADGES = 3;

/** The first two letters of the handle in upper case, or DG. */
export function avatarInitials(handle: string | null | undefined): string {
  const letters = (handle ?? "").trim().slice(0, 2).toUpperCase();
  return letters || "DG";
}

/** The handle, or 'anonymous' when there is none. */
export function displayHandle(handle: string | null | undefined): string {
  return handle?.trim() || "anonymous";
}

/** A rating with one decimal, halves rounded up: 4.85 -> "4.9", 0 -> "0.0". */
export function formatRating(rating: number | string | null | undefined): string {
  // toFixed rounds the binary value (4.85 is 4.8499...): nudge it past the float error first.
  return (Math.round((Number(rating) || 0) * 10 + 1e-9) / 10).toFixed(1);
}

/** The badges a card shows and how many more there are. */
export function cardBadges<T>(items: T[], max = MAX_CARD_BADGES): { shown: T[]; more: number } {
  const shown = items.slice(0, max);
  return { shown, more: items.length - shown.length };
}

/** "$45/hr", "$45 - $95/hr", "From $45/hr", "Up to $95/hr", or null when neither is set. */
export function hourlyRateText(minCents: number | null, maxCents: number | null): string | null {
  const format = formatMoney;
  if (minCents !== null && maxCents !== null) {
    return minCents === maxCents ? `${format(minCents)}/hr` : `${format(minCents)} - ${format(maxCents)}/hr`;
  }
  if (minCents !== null) return `From ${format(minCents)}/hr`;
  if (maxCents !== null) return `Up to ${format(maxCents)}/hr`;
  return null;
}
