/**
 * Calendar days as en-US's medium date writes them ("Nov 23, 2026"): a gig's deadline, a quote's
 * start date, a credential's expiry, stored as days and the same day in every zone. An instant is
 * written in its reader's zone instead, on the server (core/zoned-dates.ts, server/reader-time.ts;
 * decision 0071). Written out rather than through `Intl` (why: core/money.ts); the zone helpers
 * below are the server's.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function validDate(date: string | Date): Date {
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) throw new RangeError(`Invalid time value: ${String(date)}`);
  return value;
}

function dayText(value: Date): string {
  return `${MONTHS[value.getUTCMonth()]} ${value.getUTCDate()}, ${value.getUTCFullYear()}`;
}

export function formatDate(date: string | Date): string {
  return dayText(validDate(date));
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

/**
 * The instant a wall clock in `timeZone` shows `time` (HH:MM) on `day` (YYYY-MM-DD): a visit's
 * option as its digger wrote it (issue 50). Null for a time the clocks skip that day (2:30 AM
 * when summer time begins); of a time they show twice (1:30 AM when it ends), the first.
 */
export function wallClockInstant(day: string, time: string, timeZone: string): Date | null {
  const wall = Date.parse(`${day}T${time}:00Z`);
  // Not a day of the calendar (Feb 30 would roll over into March).
  if (Number.isNaN(wall) || new Date(wall).toISOString().slice(0, 16) !== `${day}T${time}`) return null;
  const HOURS_24 = 24 * 3600 * 1000;
  // The zone's offsets a day either side: a clock change between them makes two candidates.
  const candidates = [...new Set([offsetAt(timeZone, new Date(wall - HOURS_24)), offsetAt(timeZone, new Date(wall + HOURS_24))])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + offsetAt(timeZone, new Date(instant)) === wall)
    .sort((a, b) => a - b);
  return candidates.length > 0 ? new Date(candidates[0]!) : null;
}
