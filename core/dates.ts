/**
 * Dates as the app shows them, in UTC so that the server's page and the browser's agree:
 * "Nov 23, 2026", and with the time where the hour matters (a deadline):
 * "Nov 26, 2026, 5:32 PM UTC".
 */
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function formatDate(date: string | Date): string {
  return dateFormat.format(new Date(date));
}

export function formatDateTime(date: string | Date): string {
  return `${dateTimeFormat.format(new Date(date))} UTC`;
}

/** The calendar day of `now` in `timeZone` (YYYY-MM-DD). */
export function dayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** The calendar day `days` after `day` (both YYYY-MM-DD; negative goes back). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in milliseconds. */
function offsetAt(timeZone: string, at: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" })
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant `day` (YYYY-MM-DD) begins in `timeZone`: its midnight there (or, on a day whose
 * midnight a clock change skips, the first moment after it).
 */
export function startOfDayIn(day: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  // The offset at the guess, then at the corrected instant: twice settles a day with a clock change.
  let instant = midnightUtc - offsetAt(timeZone, new Date(midnightUtc));
  instant = midnightUtc - offsetAt(timeZone, new Date(instant));
  return new Date(instant);
}
