/**
 * Times in the reader's zone (issue 47): one instant reads as each zone's wall clock, with the
 * zone's short name as en-US writes it, and a list's relative times count the reader's days.
 */
import { describe, expect, it } from "vitest";
import { deadlineText, isTimeZone, listTime, visitWindowText, zonedDate, zonedDateTime, zonedDay, zonedTime } from "../../core/zoned-dates.ts";
import { readerTime } from "../../server/reader-time.ts";

// 7:47 PM on Nov 28 in Austin (CST, UTC-6) is 1:47 AM on Nov 29 in UTC and 10:47 AM on Nov 29 in Tokyo.
const instant = new Date("2026-11-29T01:47:00Z");

describe("a time written again (kept by style, zone and minute)", () => {
  it("reads the same for each instant of a minute and changes with the minute, the zone and the clock's change", () => {
    expect(zonedDateTime("2026-11-29T01:47:59.999Z", "America/Chicago")).toBe("Nov 28, 2026, 7:47 PM CST");
    expect(zonedDateTime("2026-11-29T01:47:00.000Z", "America/Chicago")).toBe("Nov 28, 2026, 7:47 PM CST");
    expect(zonedDateTime("2026-11-29T01:48:00.000Z", "America/Chicago")).toBe("Nov 28, 2026, 7:48 PM CST");
    expect(zonedDateTime("2026-11-29T01:47:30.000Z", "America/Denver")).toBe("Nov 28, 2026, 6:47 PM MST");
    // The night the clocks went back in Chicago: 1:59 AM CDT, then 1:00 AM CST.
    expect(zonedDateTime("2026-11-01T06:59:00Z", "America/Chicago")).toBe("Nov 1, 2026, 1:59 AM CDT");
    expect(zonedDateTime("2026-11-01T07:00:00Z", "America/Chicago")).toBe("Nov 1, 2026, 1:00 AM CST");
    // The same minute in other styles: each its own text.
    expect(zonedDate("2026-11-29T01:47:10Z", "America/Chicago")).toBe("Nov 28, 2026");
    expect(zonedDay("2026-11-29T01:47:20Z", "America/Chicago")).toBe("2026-11-28");
    expect(zonedTime("2026-11-29T01:47:30Z", "America/Chicago")).toBe("7:47 PM");
    expect(zonedDay("2026-11-29T01:47:40Z", "UTC")).toBe("2026-11-29");
  });
});

describe("one instant in three zones", () => {
  it("reads the wall clock and the zone's short name of each", () => {
    expect(zonedDateTime(instant, "America/Chicago")).toBe("Nov 28, 2026, 7:47 PM CST");
    expect(zonedDateTime(instant, "Asia/Tokyo")).toBe("Nov 29, 2026, 10:47 AM GMT+9");
    expect(zonedDateTime(instant, "UTC")).toBe("Nov 29, 2026, 1:47 AM UTC");
  });

  it("dates by the reader's day", () => {
    expect(zonedDate(instant, "America/Chicago")).toBe("Nov 28, 2026");
    expect(zonedDate(instant, "Asia/Tokyo")).toBe("Nov 29, 2026");
    expect(zonedDay(instant, "America/Chicago")).toBe("2026-11-28");
    expect(zonedTime(instant, "America/Chicago")).toBe("7:47 PM");
  });

  it("names summer time as summer time", () => {
    expect(zonedDateTime("2026-07-04T17:00:00Z", "America/Chicago")).toBe("Jul 4, 2026, 12:00 PM CDT");
    // The night the clocks go back, 1:30 AM happens twice: once CDT, once CST.
    expect(zonedDateTime("2026-11-01T06:30:00Z", "America/Chicago")).toBe("Nov 1, 2026, 1:30 AM CDT");
    expect(zonedDateTime("2026-11-01T07:30:00Z", "America/Chicago")).toBe("Nov 1, 2026, 1:30 AM CST");
  });
});

describe("a deadline", () => {
  const now = new Date("2026-11-29T01:47:00Z");
  it("reads weekday, day and time with the zone, and the year only when it is not this year's", () => {
    expect(deadlineText("2026-12-02T01:53:00Z", "America/Chicago", now)).toBe("Tue, Dec 1, 7:53 PM CST");
    expect(deadlineText("2026-12-02T01:53:00Z", "Asia/Tokyo", now)).toBe("Wed, Dec 2, 10:53 AM GMT+9");
    expect(deadlineText("2027-01-05T15:00:00Z", "America/Chicago", now)).toBe("Tue, Jan 5, 2027, 9:00 AM CST");
  });
});

describe("a list's time", () => {
  const zone = "America/Chicago";
  const now = new Date("2026-11-29T01:47:00Z"); // Nov 28, 7:47 PM in Chicago
  const before = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  it("reads relative to the server's now, by the reader's days", () => {
    expect(listTime(before(0.5), zone, now)).toBe("just now");
    expect(listTime(before(5), zone, now)).toBe("5 min ago");
    expect(listTime(before(59), zone, now)).toBe("59 min ago");
    expect(listTime(before(4 * 60 + 7), zone, now)).toBe("3:40 PM");
    // 8:00 PM on Nov 27 in Chicago (Nov 28 in UTC): yesterday for this reader.
    expect(listTime("2026-11-28T02:00:00Z", zone, now)).toBe("Yesterday, 8:00 PM");
    expect(listTime("2026-11-24T21:40:00Z", zone, now)).toBe("Tue, 3:40 PM");
    expect(listTime("2026-03-02T12:00:00Z", zone, now)).toBe("Mar 2");
    expect(listTime("2025-11-28T12:00:00Z", zone, now)).toBe("Nov 28, 2025");
  });

  it("the same instant is 'Yesterday' in one zone and today in another", () => {
    const tokyoNow = new Date("2026-11-29T01:47:00Z"); // 10:47 AM Nov 29 in Tokyo
    expect(listTime("2026-11-28T14:00:00Z", "Asia/Tokyo", tokyoNow)).toBe("Yesterday, 11:00 PM");
    expect(listTime("2026-11-28T16:00:00Z", "Asia/Tokyo", tokyoNow)).toBe("1:00 AM");
  });

  it("refuses an invalid time as Intl does", () => {
    expect(() => listTime("not a date", zone, now)).toThrow(RangeError);
  });
});

describe("readerTime", () => {
  const config = { defaultTimeZone: "America/New_York" };
  it("uses the account's zone, else the default, and a zone this runtime does not know falls back too", () => {
    expect(readerTime("Asia/Tokyo", config, instant).dateTime(instant)).toBe("Nov 29, 2026, 10:47 AM GMT+9");
    expect(readerTime(null, config, instant).zone).toBe("America/New_York");
    expect(readerTime("Mars/Olympus_Mons", config, instant).zone).toBe("America/New_York");
    expect(readerTime("America/Chicago", config, instant).today).toBe("2026-11-28");
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    // Asked again (a known zone is kept): the same answers.
    expect(isTimeZone("America/Chicago")).toBe(true);
    expect(isTimeZone("America/Chicago")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
  });
});

describe("a visit's arrival window (issue 50)", () => {
  const now = new Date("2027-03-03T18:00:00Z");
  it("writes a window as a range, an exact time alone, and each end's zone name when the clocks change inside it", () => {
    expect(visitWindowText("2027-03-14T14:00:00Z", 120, "America/Chicago", now)).toBe("Sun, Mar 14, 9:00 – 11:00 AM CDT");
    expect(visitWindowText("2027-03-14T14:00:00Z", 0, "America/Chicago", now)).toBe("Sun, Mar 14, 9:00 AM CDT");
    // 1:30 AM is still standard time; an hour later the clocks show 3:30, summer time.
    expect(visitWindowText("2027-03-14T07:30:00Z", 60, "America/Chicago", now)).toBe("Sun, Mar 14, 1:30 AM CST – 3:30 AM CDT");
    expect(visitWindowText("2027-03-14T07:30:00Z", 60, "America/Los_Angeles", now)).toBe("Sat, Mar 13, 11:30 PM PST – Sun, Mar 14, 12:30 AM PST");
    expect(visitWindowText("2027-11-07T06:30:00Z", 120, "America/Chicago", now)).toBe("Sun, Nov 7, 1:30 AM CDT – 2:30 AM CST");
  });

  it("writes the same window again the same, and with its year once read from another year (texts are kept by the reader's year)", () => {
    const first = visitWindowText("2027-03-14T14:00:00Z", 120, "America/Chicago", now);
    expect(visitWindowText(new Date("2027-03-14T14:00:00Z"), 120, "America/Chicago", now)).toBe(first);
    expect(visitWindowText("2027-03-14T14:00:00Z", 120, "America/Chicago", new Date("2026-12-30T18:00:00Z"))).toBe("Sun, Mar 14, 2027, 9:00 – 11:00 AM CDT");
    expect(visitWindowText("2027-03-14T14:00:00Z", 120, "America/Denver", now)).toBe("Sun, Mar 14, 8:00 – 10:00 AM MDT");
    expect(visitWindowText("2027-03-14T14:00:00Z", 60, "America/Chicago", now)).toBe("Sun, Mar 14, 9:00 – 10:00 AM CDT");
  });
});
