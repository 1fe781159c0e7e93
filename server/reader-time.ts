/**
 * Times as one reader reads them (issue 47, decision 0071): an operation, an e-mail or a push
 * makes the text here, in the reader's zone, and the page shows that text. The browser formats
 * no time, so the server's page and hydration write the same characters; `now` is the server's
 * own, taken once per page, so a list's "5 min ago" agrees with itself.
 */
import { timeAgo } from "#core/relative-time.ts";
import { deadlineText, isTimeZone, listTime, visitStartText, visitWindowText, zonedDate, zonedDateTime, zonedDay, zonedTime } from "#core/zoned-dates.ts";
import type { Config } from "./config.ts";

export interface ReaderTime {
  /** The IANA zone the texts are written in. */
  zone: string;
  /** The server's time when the page was made. */
  now: Date;
  /** The reader's calendar day (YYYY-MM-DD): a date picker's first day. */
  today: string;
  /** "Nov 28, 2026" */
  date(value: Date | string): string;
  /** "Nov 28, 2026, 7:47 PM CST" */
  dateTime(value: Date | string): string;
  /** "Tue, Dec 1, 7:53 PM CST" (with the year when not this year's) */
  deadline(value: Date | string): string;
  /** "3:40 PM" */
  time(value: Date | string): string;
  /** "5 min ago", "Yesterday, 3:40 PM", "Nov 28": a list's time */
  list(value: Date | string): string;
  /** "3 hours ago": the spec's 'Posted … ago' */
  ago(value: Date | string): string;
  /** The reader's calendar day of `value` (YYYY-MM-DD). */
  day(value: Date | string): string;
  /** A visit's start, as its Book button names it: "Tue, Dec 8, 9:00 AM" (issue 50) */
  visitStart(value: Date | string): string;
  /** A visit's arrival window: "Tue, Dec 8, 9:00 – 11:00 AM CST", or its exact time "Tue, Dec 8, 9:00 AM CST" */
  visitWindow(start: Date | string, windowMinutes: number): string;
}

/**
 * The reader's times: `zone` is the account's (null before its first sign-in with a browser
 * that told it, or for a signed-out reader), else the site's `defaultTimeZone`.
 */
export function readerTime(zone: string | null | undefined, config: Pick<Config, "defaultTimeZone">, now: Date = new Date()): ReaderTime {
  const at = zone && isTimeZone(zone) ? zone : config.defaultTimeZone;
  return {
    zone: at,
    now,
    today: zonedDay(now, at),
    date: (value) => zonedDate(value, at),
    dateTime: (value) => zonedDateTime(value, at),
    deadline: (value) => deadlineText(value, at, now),
    time: (value) => zonedTime(value, at),
    list: (value) => listTime(value, at, now),
    ago: (value) => timeAgo(value, now),
    day: (value) => zonedDay(value, at),
    visitStart: (value) => visitStartText(value, at, now),
    visitWindow: (start, windowMinutes) => visitWindowText(start, windowMinutes, at, now),
  };
}
