import { describe, expect, it } from "vitest";
import { wallClockInstant } from "#core/dates.ts";
import { fieldMessages } from "#core/forms.ts";
import { keptVisitsLine, VISIT_FIELD_MESSAGES, visitCancelSchema, visitProposalSchema } from "#core/visits.ts";
import { visitStartText, visitWindowText } from "#core/zoned-dates.ts";

const CHICAGO = "America/Chicago";
const now = new Date("2027-03-01T12:00:00Z");

describe("a visit's wall clock in the digger's zone (issue 50)", () => {
  it("reads a time as the zone's clock shows it, on either side of a clock change", () => {
    expect(wallClockInstant("2027-03-13", "09:00", CHICAGO)?.toISOString()).toBe("2027-03-13T15:00:00.000Z"); // CST, UTC-6
    expect(wallClockInstant("2027-03-14", "09:00", CHICAGO)?.toISOString()).toBe("2027-03-14T14:00:00.000Z"); // CDT, UTC-5
    expect(wallClockInstant("2027-03-14", "09:00", "America/Los_Angeles")?.toISOString()).toBe("2027-03-14T16:00:00.000Z");
    expect(wallClockInstant("2027-06-01", "09:30", "Asia/Kolkata")?.toISOString()).toBe("2027-06-01T04:00:00.000Z");
  });

  it("refuses a time the clocks skip, and takes the first of a time they show twice", () => {
    expect(wallClockInstant("2027-03-14", "02:30", CHICAGO)).toBeNull();
    expect(wallClockInstant("2027-11-07", "01:30", CHICAGO)?.toISOString()).toBe("2027-11-07T06:30:00.000Z"); // CDT's 1:30, not CST's
    expect(wallClockInstant("2027-02-30", "09:00", CHICAGO)).toBeNull();
  });
});

describe("the Propose a visit form", () => {
  const schema = visitProposalSchema(CHICAGO, now);
  const refused = (input: unknown) => {
    const parsed = schema.safeParse(input);
    if (parsed.success) throw new Error(`accepted ${JSON.stringify(input)}`);
    return fieldMessages(parsed.error);
  };

  it("takes one to three times with their windows and a note", () => {
    const parsed = schema.parse({
      options: [
        { date: "2027-03-13", time: "09:00", window: "120" },
        { date: "2027-03-14", time: "09:00", window: "0" },
      ],
      note: "  Gate code at the door  ",
    });
    expect(parsed.options.map((o) => [o.startsAt.toISOString(), o.window])).toEqual([
      ["2027-03-13T15:00:00.000Z", 120],
      ["2027-03-14T14:00:00.000Z", 0],
    ]);
    expect(parsed.note).toBe("Gate code at the door");
    expect(schema.parse({ options: [{ date: "2027-03-13", time: "09:00", window: "60" }], note: "" }).note).toBeNull();
  });

  it("refuses times too soon, too far, skipped by the clocks, repeated, and more than three", () => {
    expect(refused({ options: [{ date: "2027-03-01", time: "07:00", window: "0" }] })["options.0.time"]).toBe(VISIT_FIELD_MESSAGES.tooSoon);
    expect(refused({ options: [{ date: "2027-05-01", time: "09:00", window: "0" }] })["options.0.time"]).toBe(VISIT_FIELD_MESSAGES.tooFar);
    expect(refused({ options: [{ date: "2027-03-14", time: "02:30", window: "0" }] })["options.0.time"]).toBe(VISIT_FIELD_MESSAGES.skipped);
    const twice = { date: "2027-03-13", time: "09:00", window: "60" };
    expect(refused({ options: [twice, twice] })["options.1.time"]).toBe(VISIT_FIELD_MESSAGES.same);
    expect(refused({ options: [1, 2, 3, 4].map((d) => ({ date: `2027-03-1${d}`, time: "10:00", window: "0" })) }).options).toBe(VISIT_FIELD_MESSAGES.tooMany);
    expect(refused({ options: [] }).options).toBe(VISIT_FIELD_MESSAGES.noTime);
    expect(refused({ options: [{ date: "2027-03-13", time: "09:00", window: "90" }] })["options.0.window"]).toBe(VISIT_FIELD_MESSAGES.window);
    expect(refused({ options: [{ date: "2027-03-13", time: "09:00", window: "0" }], note: "x".repeat(501) }).note).toBe(VISIT_FIELD_MESSAGES.noteTooLong);
  });

  it("asks a cancellation for a reason of at most 200 characters", () => {
    expect(visitCancelSchema.safeParse({ reason: "  " }).success).toBe(false);
    expect(visitCancelSchema.safeParse({ reason: "x".repeat(201) }).success).toBe(false);
    expect(visitCancelSchema.parse({ reason: " Sick " }).reason).toBe("Sick");
  });
});

describe("a visit's times as a reader reads them", () => {
  const start = "2027-03-13T15:00:00.000Z";
  it("writes the window in the reader's zone, an exact time alone, the year only when not this year's", () => {
    expect(visitWindowText(start, 120, CHICAGO, now)).toBe("Sat, Mar 13, 9:00 – 11:00 AM CST");
    expect(visitWindowText(start, 120, "America/Los_Angeles", now)).toBe("Sat, Mar 13, 7:00 – 9:00 AM PST");
    expect(visitWindowText(start, 0, CHICAGO, now)).toBe("Sat, Mar 13, 9:00 AM CST");
    expect(visitStartText(start, CHICAGO, now)).toBe("Sat, Mar 13, 9:00 AM");
    expect(visitStartText(start, CHICAGO, new Date("2026-12-20T12:00:00Z"))).toBe("Sat, Mar 13, 2027, 9:00 AM");
  });
});

describe("'Kept {k} of {n} visits'", () => {
  it("shows from three counted visits", () => {
    expect(keptVisitsLine({ kept: 2, counted: 2 })).toBeNull();
    expect(keptVisitsLine(null)).toBeNull();
    expect(keptVisitsLine({ kept: 2, counted: 3 })).toBe("Kept 2 of 3 visits");
  });
});
