/**
 * "just now", "5 minutes ago", "3 hours ago", "2 days ago", ... as the spec's 'Posted … ago':
 * en-US's relative time with numbers, written out (why: core/money.ts).
 */
import { formatCount } from "./money.ts";

/** The units, largest first, each with its length in seconds: a time is told in the largest that fits. */
export const TIME_UNITS = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
] as const;

export function timeAgo(date: Date | string, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - new Date(date).getTime()) / 1000));
  for (const [unit, size] of TIME_UNITS) {
    if (seconds >= size) {
      const count = Math.floor(seconds / size);
      return `${formatCount(count)} ${unit}${count === 1 ? "" : "s"} ago`;
    }
  }
  return "just now";
}
