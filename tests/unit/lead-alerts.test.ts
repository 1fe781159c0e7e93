import { describe, expect, it } from "vitest";
import { LEAD_ALERT_MESSAGES, leadAlertsSchema, splitKeywords } from "../../core/lead-alerts.ts";
import { dayIn } from "../../core/dates.ts";

const CATEGORY = "0b9d3c8e-2f61-4a57-9d7e-3c1f0e6a4b21";
const parse = (over: Record<string, unknown>) => leadAlertsSchema.safeParse({ frequency: "instant", categoryIds: [CATEGORY], ...over });
const firstMessage = (over: Record<string, unknown>) => {
  const result = parse(over);
  return result.success ? null : result.error.issues[0]!.message;
};

describe("the Lead alerts form", () => {
  it("splits keywords on commas, trims them, drops empty and repeated ones", () => {
    expect(splitKeywords(" deck,  cedar  wood ,, deck ")).toEqual(["deck", "cedar wood"]);
    expect(splitKeywords("")).toEqual([]);
  });

  it("parses a full form into what is saved: cents, no empty texts", () => {
    expect(parse({ keywords: "deck", location: "  ", maxLeadPrice: "$75.50" }).data).toEqual({
      frequency: "instant",
      categoryIds: [CATEGORY],
      keywords: ["deck"],
      location: null,
      maxLeadPrice: 7550,
      verifiedPhoneOnly: false,
    });
    expect(parse({ verifiedPhoneOnly: true }).data?.verifiedPhoneOnly).toBe(true);
  });

  it("says what is wrong, with the form's messages", () => {
    expect(firstMessage({ frequency: "weekly" })).toBe(LEAD_ALERT_MESSAGES.frequency);
    expect(firstMessage({ categoryIds: [] })).toBe(LEAD_ALERT_MESSAGES.categories);
    expect(firstMessage({ frequency: "off", categoryIds: [] })).toBeNull();
    expect(firstMessage({ categoryIds: ["x"] })).toBe(LEAD_ALERT_MESSAGES.unknownCategory);
    expect(firstMessage({ keywords: "a,b,c,d,e,f,g,h,i,j,k" })).toBe(LEAD_ALERT_MESSAGES.tooManyKeywords);
    expect(firstMessage({ keywords: "x".repeat(51) })).toBe(LEAD_ALERT_MESSAGES.keywordLength);
    expect(firstMessage({ location: "x".repeat(101) })).toBe(LEAD_ALERT_MESSAGES.location);
    expect(firstMessage({ maxLeadPrice: "75.555" })).toBe(LEAD_ALERT_MESSAGES.maxPrice);
    expect(firstMessage({ maxLeadPrice: "-5" })).toBe(LEAD_ALERT_MESSAGES.maxPrice);
    expect(firstMessage({ maxLeadPrice: "0" })).toBe(LEAD_ALERT_MESSAGES.maxPriceRange);
    expect(firstMessage({ maxLeadPrice: "1000000.01" })).toBe(LEAD_ALERT_MESSAGES.maxPriceRange);
  });
});

describe("the digest's day", () => {
  it("is the calendar day in the server's time zone", () => {
    const instant = new Date("2026-11-23T23:30:00Z");
    expect(dayIn("UTC", instant)).toBe("2026-11-23");
    expect(dayIn("Europe/Paris", instant)).toBe("2026-11-24");
    expect(dayIn("America/Los_Angeles", instant)).toBe("2026-11-23");
  });
});
