import { describe, expect, it } from "vitest";
import { avatarInitials, cardBadges, displayHandle, formatRating, hourlyRateText } from "../../core/digger-display.ts";

describe("digger display rules", () => {
  it("avatar: first two letters of the handle upper-cased, or DG", () => {
    expect(avatarInitials("sparklenest")).toBe("SP");
    expect(avatarInitials("x")).toBe("X");
    expect(avatarInitials("")).toBe("DG");
    expect(avatarInitials(null)).toBe("DG");
  });

  it("handle falls back to anonymous", () => {
    expect(displayHandle("pat")).toBe("pat");
    expect(displayHandle("")).toBe("anonymous");
    expect(displayHandle(undefined)).toBe("anonymous");
  });

  it("rating with one decimal", () => {
    expect(formatRating(4.85)).toBe("4.9");
    expect(formatRating(0)).toBe("0.0");
    expect(formatRating("4.7")).toBe("4.7");
  });

  it("at most 3 badges then +N", () => {
    expect(cardBadges(["a", "b"])).toEqual({ shown: ["a", "b"], more: 0 });
    expect(cardBadges(["a", "b", "c", "d", "e"])).toEqual({ shown: ["a", "b", "c"], more: 2 });
  });

  it("hourly rate text", () => {
    expect(hourlyRateText(4500, 9550)).toBe("$45 - $95.50/hr");
    expect(hourlyRateText(4500, null)).toBe("From $45/hr");
    expect(hourlyRateText(null, 9000)).toBe("Up to $90/hr");
    expect(hourlyRateText(5000, 5000)).toBe("$50/hr");
    expect(hourlyRateText(null, null)).toBeNull();
  });
});
