import { describe, expect, it } from "vitest";
import { firstMessage } from "../../core/forms.ts";
import { hireRateText, replySchema, reviewEditable, reviewerName, reviewSchema, starLabel } from "../../core/reviews.ts";

describe("reviewerName", () => {
  it("is the first name and the last name's initial, never the rest", () => {
    expect(reviewerName("Maria Sanchez")).toBe("Maria S.");
    expect(reviewerName("  maria   de la  cruz ")).toBe("maria C.");
    expect(reviewerName("Ólafur ÿsland")).toBe("Ólafur Ÿ.");
    expect(reviewerName("Cher")).toBe("Cher");
    expect(reviewerName("")).toBe("A client");
    expect(reviewerName(null)).toBe("A client");
  });
});

describe("hireRateText", () => {
  it("shows the hire rate only from five purchases", () => {
    expect(hireRateText(60, 4)).toBeNull();
    expect(hireRateText(60, 5)).toBe("Hired on 60% of leads");
  });
});

describe("the review and reply forms", () => {
  const review = (input: Record<string, unknown>) => {
    const parsed = reviewSchema.safeParse(input);
    return parsed.success ? "ok" : firstMessage(parsed.error);
  };
  it("say the issue's messages", () => {
    expect(review({ body: "x".repeat(20) })).toBe("Please choose a rating");
    expect(review({ rating: "0", body: "x".repeat(20) })).toBe("Please choose a rating");
    expect(review({ rating: "2.5", body: "x".repeat(20) })).toBe("Please choose a rating");
    // Only a plain whole number 1 to 5 (issue 30): no other spelling of one.
    for (const rating of ["1e0", "0x5", " 5 ", "5.0", "+5", "05", "5\n", "٥", "", 6, 0, 2.5, true, null]) {
      expect(review({ rating, body: "x".repeat(20) }), JSON.stringify(rating)).toBe("Please choose a rating");
    }
    for (const rating of ["1", "5", 3]) expect(reviewSchema.parse({ rating, body: "x".repeat(20) }).rating).toBe(Number(rating));
    expect(review({ rating: "5", body: ` ${"x".repeat(19)}   ` })).toBe("Review must be at least 20 characters");
    expect(review({ rating: "5", body: "x".repeat(2001) })).toBe("Review must be at most 2000 characters");
    expect(review({ rating: "5", body: "x".repeat(2000) })).toBe("ok");
    expect(replySchema.safeParse({ reply: "too short" }).success).toBe(false);
    expect(replySchema.safeParse({ reply: "long enough" }).success).toBe(true);
  });
  it("name the stars and the edit window", () => {
    expect([1, 2, 5].map(starLabel)).toEqual(["1 star", "2 stars", "5 stars"]);
    const now = new Date("2026-11-23T12:00:00Z");
    expect(reviewEditable("2026-10-25T12:00:01Z", now)).toBe(true);
    expect(reviewEditable("2026-10-24T12:00:00Z", now)).toBe(false);
  });
});
