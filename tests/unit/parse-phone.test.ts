/**
 * Phone numbers as a client types them (issue 49, server/phones/parse-phone.ts): E.164 for a
 * valid number that can receive texts, read in DEFAULT_PHONE_COUNTRY's plan without +country;
 * null for impossible numbers and for premium-rate, toll-free and VoIP ones (what SMS pumping
 * sends to, or what never gets a text).
 */
import { describe, expect, it } from "vitest";
import { displayPhone, parsePhone } from "../../server/phones/parse-phone.ts";

describe("parsePhone", () => {
  it.each([
    ["(201) 555-0123", "US", "+12015550123", "US", "+1 201 555 0123"],
    ["201.555.0123", "US", "+12015550123", "US", "+1 201 555 0123"],
    ["+1 512 555 0123", "GB", "+15125550123", "US", "+1 512 555 0123"],
    ["07400 123456", "GB", "+447400123456", "GB", "+44 7400 123456"],
    ["+44 7400 123456", "US", "+447400123456", "GB", "+44 7400 123456"],
    ["06 12 34 56 78", "FR", "+33612345678", "FR", "+33 6 12 34 56 78"],
    ["+33 6 12 34 56 78", "US", "+33612345678", "FR", "+33 6 12 34 56 78"],
    ["+49 1512 3456789", "US", "+4915123456789", "DE", "+49 1512 3456789"],
  ] as const)("reads %s (default %s) as %s", (input, defaultCountry, e164, country, international) => {
    expect(parsePhone(input, defaultCountry)).toEqual({ e164, country, international });
  });

  it("names the number's own country, not its calling code's first one: +1 876 is Jamaica", () => {
    expect(parsePhone("+1 876 210 1234", "US")?.country).toBe("JM");
    expect(parsePhone("+1 416 555 0199", "US")?.country).toBe("CA");
  });

  it("reads a number without +country in DEFAULT_PHONE_COUNTRY's plan", () => {
    expect(parsePhone("020 7946 0958", "GB")?.e164).toBe("+442079460958");
    expect(parsePhone("020 7946 0958", "US")).toBeNull();
    expect(parsePhone("201 555 0123", "GB")?.e164).not.toBe("+12015550123");
  });

  it.each([
    ["impossible: too short", "123"],
    ["impossible: too long", "+1 201 555 01234"],
    ["not a number", "call me after six"],
    ["empty", ""],
    ["a US premium-rate number", "900 200 0123"],
    ["a US toll-free number", "(800) 234-5678"],
    ["a UK premium-rate number", "+44 909 879 0000"],
    ["a UK VoIP number", "+44 56 1234 5678"],
  ])("refuses %s", (_what, input) => {
    expect(parsePhone(input, "US")).toBeNull();
  });
});

describe("displayPhone", () => {
  it("writes a stored E.164 number internationally, and a free-text number of before as it is", () => {
    expect(displayPhone("+12015550123")).toBe("+1 201 555 0123");
    expect(displayPhone("(555) 010-9999")).toBe("(555) 010-9999");
  });
});
