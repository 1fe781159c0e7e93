import { describe, expect, it } from "vitest";
import { firstMessage } from "../../core/forms.ts";
import { editBoughtGigSchema, editGigSchema, gigStatusSchema, postGigSchema } from "../../core/gig-schema.ts";
import { MAX_DIGGERS_MESSAGE } from "../../core/gig-texts.ts";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { parsePhone } from "../../server/phones/parse-phone.ts";

const today = "2026-11-21";
const readPhone = (typed: string) => parsePhone(typed, "US")?.e164 ?? null;
const valid = {
  acceptTerms: "on",
  title: "Paint two bedrooms",
  description: "Two bedrooms, about 12 by 14 feet each, walls only. Paint is already bought.",
  location: "Austin, TX",
  timeline: "Within 2 weeks",
  budgetMin: "500",
  budgetMax: "1200.50",
  categoryId: "0f8c3b6e-1111-4222-8333-944444444444",
  deadline: "2026-12-01",
  contactPreferences: "Text after 5pm",
};
const messageOf = (input: Record<string, unknown>) => {
  const result = postGigSchema(today, readPhone).safeParse(input);
  return result.success ? undefined : firstMessage(result.error);
};

describe("post-gig rules (spec section 5)", () => {
  it("takes Maximum diggers from 1 to 5, 3 when not given, and refuses anything else (issue 19)", () => {
    expect(postGigSchema(today, readPhone).parse(valid).maxDiggers).toBe(3);
    expect(postGigSchema(today, readPhone).parse({ ...valid, maxDiggers: "" }).maxDiggers).toBe(3);
    for (const n of [1, 2, 3, 4, 5]) expect(postGigSchema(today, readPhone).parse({ ...valid, maxDiggers: ` ${n} ` }).maxDiggers).toBe(n);
    for (const bad of ["0", "6", "abc", "2.5", "-1", "1e0", "05x", 3]) expect(messageOf({ ...valid, maxDiggers: bad }), String(bad)).toBe(MAX_DIGGERS_MESSAGE);
  });

  it("accepts a complete gig and converts dollars to cents", () => {
    const result = postGigSchema(today, readPhone).parse(valid);
    expect(result).toMatchObject({ budgetMin: 50_000, budgetMax: 120_050, deadline: "2026-12-01" });
  });

  it("treats empty optional fields as not given", () => {
    const result = postGigSchema(today, readPhone).parse({ ...valid, budgetMin: "", budgetMax: "", deadline: "", contactPreferences: " " });
    expect(result).toMatchObject({ budgetMin: null, budgetMax: null, deadline: null, contactPreferences: null });
  });

  it.each([
    [{ acceptTerms: undefined }, "Please accept the Terms of Service to continue"],
    [{ title: "  short    " }, "Title must be at least 10 characters"],
    [{ title: "x".repeat(101) }, "Title must be less than 100 characters"],
    [{ description: "too short" }, "Description must be at least 50 characters"],
    [{ description: "x".repeat(2001) }, "Description must be less than 2000 characters"],
    [{ budgetMin: "-1" }, "Budget must be positive"],
    [{ budgetMax: "-5" }, "Budget must be positive"],
    [{ categoryId: "" }, "Please select a category"],
    [{ categoryId: "not-a-uuid" }, "Please select a category"],
    [{ budgetMin: "5000", budgetMax: "1000" }, "Minimum budget cannot be greater than maximum budget"],
    [{ deadline: "2026-11-20" }, "The deadline cannot be in the past"],
    [{ location: "" }, "Location is required"],
    [{ timeline: "   " }, "Timeline is required"],
    [{ budgetMin: "12abc" }, "Please enter the budget in dollars, like 1500 or 1500.50"],
    [{ budgetMax: "1e12" }, "Please enter the budget in dollars, like 1500 or 1500.50"],
  ])("rejects %j with %s", (change, message) => {
    expect(messageOf({ ...valid, ...change })).toBe(message);
  });

  it("checks in the spec's order: terms before title", () => {
    expect(messageOf({ ...valid, acceptTerms: undefined, title: "" })).toBe("Please accept the Terms of Service to continue");
  });

  it("allows exactly 10 and 100 characters after trimming, and a deadline of today", () => {
    expect(messageOf({ ...valid, title: `  ${"x".repeat(10)}  ` })).toBeUndefined();
    expect(messageOf({ ...valid, title: "x".repeat(100) })).toBeUndefined();
    expect(messageOf({ ...valid, deadline: today })).toBeUndefined();
  });
});

describe("the gig's phone (issue 49)", () => {
  it("is stored in E.164, read in the default country's plan; empty is none", () => {
    expect(postGigSchema(today, readPhone).parse({ ...valid, contactPhone: " (512) 555-0123 " }).contactPhone).toBe("+15125550123");
    expect(postGigSchema(today, readPhone).parse({ ...valid, contactPhone: "+44 20 7946 0018" }).contactPhone).toBe("+442079460018");
    expect(postGigSchema(today, readPhone).parse({ ...valid, contactPhone: "  " }).contactPhone).toBeNull();
  });

  it("refuses a number that cannot receive texts: impossible, toll free, premium rate", () => {
    for (const phone of ["call me", "555-1234", "+1 303 1234567", "800 555 0100", "900 555 0100"]) {
      expect(messageOf({ ...valid, contactPhone: phone }), phone).toBe(PHONE_TEXTS.invalidNumber);
    }
  });

  it("keeps a free-text number of before sent back as it is; a changed one is read like a new one", () => {
    for (const schema of [editGigSchema, editBoughtGigSchema]) {
      const { acceptTerms: _, ...fields } = valid;
      expect(schema(today, readPhone, "555-1234").parse({ ...fields, contactPhone: " 555-1234 " }).contactPhone).toBe("555-1234");
      expect(schema(today, readPhone, "+1 (303) 555-0142").parse({ ...fields, contactPhone: "+1 (303) 555-0142" }).contactPhone).toBe("+1 (303) 555-0142");
      expect(schema(today, readPhone, "555-1234").safeParse({ ...fields, contactPhone: "555-1235" }).success).toBe(false);
      expect(schema(today, readPhone, "555-1234").parse({ ...fields, contactPhone: "303 555 0142" }).contactPhone).toBe("+13035550142");
    }
  });
});

describe("My Gigs' status switch", () => {
  const gigId = "0f8c3b6e-1111-4222-8333-944444444444";
  it("takes open or closed for a gig id; an id that is not a uuid names no gig", () => {
    expect(gigStatusSchema.parse({ intent: "set-status", status: "closed", gigId })).toEqual({ intent: "set-status", status: "closed", gigId, filled: false });
    // 'Yes, I hired someone' sends filled=yes; anything else is "not filled".
    expect(gigStatusSchema.parse({ intent: "set-status", status: "closed", gigId, filled: "yes" }).filled).toBe(true);
    for (const filled of ["no", "true", "", null, ["yes"]]) {
      expect(gigStatusSchema.parse({ intent: "set-status", status: "closed", gigId, filled }).filled).toBe(false);
    }
    expect(gigStatusSchema.parse({ intent: "set-status", status: "open", gigId: "not-a-uuid" }).gigId).toBeNull();
    expect(gigStatusSchema.parse({ intent: "set-status", status: "open", gigId: null }).gigId).toBeNull();
  });

  it.each([
    { intent: "other", status: "closed", gigId },
    { intent: "set-status", status: "archived", gigId },
    { intent: "set-status", status: null, gigId },
  ])("refuses %j with 'Failed to update gig status'", (input) => {
    const result = gigStatusSchema.safeParse(input);
    expect(result.success ? undefined : firstMessage(result.error)).toBe("Failed to update gig status");
  });
});
