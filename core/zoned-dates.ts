/**
 * Times in a reader's time zone, as en-US writes them (issue 47, decision 0071): "Nov 28, 2026",
 * "Nov 28, 2026, 7:47 PM CST", "Tue, Dec 1, 7:53 PM CST", and a list's compact "5 min ago" /
 * "Yesterday, 3:40 PM". Server-only in use: these need `Intl` with the zone database (Node's full
 * ICU), which the browser bundle must not load (decision 0061), so pages receive the text these
 * write (server/reader-time.ts) and format no time themselves.
 */

type Style = "date" | "dateTime" | "dateTimeYearless" | "deadline" | "deadlineYear" | "time" | "timeZoned" | "weekday" | "monthDay" | "day" | "visitStart" | "visitStartYear";

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  date: { month: "short", day: "numeric", year: "numeric" },
  dateTime: { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  dateTimeYearless: { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  deadline: { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  deadlineYear: { weekday: "short", month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  time: { hour: "numeric", minute: "2-digit" },
  timeZoned: { hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  weekday: { weekday: "short" },
  monthDay: { month: "short", day: "numeric" },
  day: { year: "numeric", month: "2-digit", day: "2-digit" },
  visitStart: { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  visitStartYear: { weekday: "short", month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" },
};

/** Formats are costly to make and few: one per zone and style, kept (bounded: zones are ~600). */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(style: Style, zone: string): Intl.DateTimeFormat {
  const key = `${style} ${zone}`;
  let made = formats.get(key);
  if (!made) {
    if (formats.size > 5_000) formats.clear();
    made = new Intl.DateTimeFormat(style === "day" ? "en-CA" : "en-US", { ...OPTIONS[style], timeZone: zone });
    formats.set(key, made);
  }
  return made;
}

function instant(date: string | Date): Date {
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) throw new RangeError(`Invalid time value: ${String(date)}`);
  return value;
}

/** Texts written, by style, zone and minute: a list page writes the same rows' times at each request. */
const written = new Map<string, string>();

/**
 * `date` in `style` and `zone`. No style shows seconds (and every zone's offset today is whole
 * minutes), so every instant of one minute reads the same: each is formatted once. ICU writes a
 * narrow or thin no-break space before "PM" in some versions: one plain space, always.
 */
function write(style: Style, zone: string, date: string | Date): string {
  const value = instant(date);
  const key = `${style} ${zone} ${Math.floor(value.getTime() / 60_000)}`;
  let text = written.get(key);
  if (text === undefined) {
    text = format(style, zone).format(value).replace(/[\u202f\u2009\u00a0]/g, " ");
    if (written.size >= 50_000) written.clear();
    written.set(key, text);
  }
  return text;
}

/** Zones found good: every page asks of its reader's (a format made to ask costs more than the page's times). */
const knownZones = new Set<string>();

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    return false;
  }
  // Bounded: a zone's name is accepted in any case ("america/chicago"), so spellings are many.
  if (knownZones.size >= 2_000) knownZones.clear();
  knownZones.add(zone);
  return true;
}

/** "Nov 28, 2026": the reader's calendar day of `date`. */
export const zonedDate = (date: string | Date, zone: string) => write("date", zone, date);

/** "Nov 28, 2026, 7:47 PM CST" ("GMT+9" where en-US has no abbreviation, as for Asia/Tokyo). */
export const zonedDateTime = (date: string | Date, zone: string) => write("dateTime", zone, date);

/** "3:40 PM" on the reader's clock. */
export const zonedTime = (date: string | Date, zone: string) => write("time", zone, date);

/** The reader's calendar day of `date` as YYYY-MM-DD (a date picker's value). */
export const zonedDay = (date: string | Date, zone: string) => write("day", zone, date);

/**
 * A deadline: "Tue, Dec 1, 7:53 PM CST", with the year when it is not `now`'s year in the zone.
 */
export function deadlineText(date: string | Date, zone: string, now: Date): string {
  const sameYear = zonedDay(date, zone).slice(0, 4) === zonedDay(now, zone).slice(0, 4);
  return write(sameYear ? "deadline" : "deadlineYear", zone, date);
}

const DAY_MS = 24 * 3600 * 1000;

/** Whole calendar days from `day` to `later` (both YYYY-MM-DD). */
function daysBetween(day: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / DAY_MS);
}

/**
 * A list's time, read relative to `now` (the server's, sent with the page): "just now",
 * "5 min ago" within the hour, "3:40 PM" today, "Yesterday, 3:40 PM", "Tue, 3:40 PM" within the
 * week, "Nov 28" this year, "Nov 28, 2025" before. A time ahead of `now` reads as its date and time.
 */
export function listTime(date: string | Date, zone: string, now: Date): string {
  const value = instant(date);
  const seconds = Math.round((now.getTime() - value.getTime()) / 1000);
  if (seconds < 0) return write("dateTimeYearless", zone, value);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  const day = zonedDay(value, zone);
  const today = zonedDay(now, zone);
  const days = daysBetween(day, today);
  if (days === 0) return write("time", zone, value);
  if (days === 1) return `Yesterday, ${write("time", zone, value)}`;
  if (days < 7) return `${write("weekday", zone, value)}, ${write("time", zone, value)}`;
  if (day.slice(0, 4) === today.slice(0, 4)) return write("monthDay", zone, value);
  return write("date", zone, value);
}

const sameYear = (date: Date, zone: string, now: Date) => zonedDay(date, zone).slice(0, 4) === zonedDay(now, zone).slice(0, 4);

/** A visit's start as its Book button names it: "Tue, Dec 8, 9:00 AM" (with the year when not `now`'s). */
export function visitStartText(start: string | Date, zone: string, now: Date): string {
  const value = instant(start);
  return write(sameYear(value, zone, now) ? "visitStart" : "visitStartYear", zone, value);
}

/**
 * A visit's arrival window (issue 50): "Tue, Dec 8, 9:00 AM CST" for an exact time, "Tue, Dec 8,
 * 9:00 – 11:00 AM CST" for a window, "Tue, Dec 8, 10:00 PM CST – Wed, Dec 9, 2:00 AM CST" across
 * midnight; with the year when not `now`'s.
 */
export function visitWindowText(start: string | Date, windowMinutes: number, zone: string, now: Date): string {
  const from = instant(start);
  // The text depends on `now` only through its year in the zone: kept by start, window, zone and that year.
  const key = `${zone} ${from.getTime()} ${windowMinutes} ${zonedDay(now, zone).slice(0, 4)}`;
  let text = windowTexts.get(key);
  if (text === undefined) {
    text = writeVisitWindow(from, windowMinutes, zone, now);
    if (windowTexts.size >= 10_000) windowTexts.clear();
    windowTexts.set(key, text);
  }
  return text;
}

/** Visit windows written (a list page writes the same visits' windows at each request). */
const windowTexts = new Map<string, string>();

function writeVisitWindow(from: Date, windowMinutes: number, zone: string, now: Date): string {
  const style = sameYear(from, zone, now) ? "deadline" : "deadlineYear";
  if (windowMinutes <= 0) return write(style, zone, from);
  const to = new Date(from.getTime() + windowMinutes * 60_000);
  // A window across a clock change: each end with its own zone name ("1:30 AM CST – 3:30 AM
  // CDT"), which a range would write once, at its end, for both.
  const zoneName = (at: Date) => format("timeZoned", zone).formatToParts(at).find((part) => part.type === "timeZoneName")?.value;
  if (zoneName(from) !== zoneName(to)) {
    const sameDay = zonedDay(from, zone) === zonedDay(to, zone);
    return `${write(style, zone, from)} – ${write(sameDay ? "timeZoned" : style, zone, to)}`;
  }
  return format(style, zone).formatRange(from, to).replace(/[\u202f\u2009\u00a0]/g, " ");
}
