import { describe, expect, it } from "vitest";
import {
  ISSUE_MESSAGES,
  ISSUE_TYPES,
  issueStatusBadge,
  issueStatusLabel,
  issueTypeLabel,
  parseIssueReport,
  REFUND_PERCENTAGES,
  refundCents,
} from "../../core/lead-issues.ts";
import { formatPrice } from "../../core/money.ts";

describe("issue types", () => {
  it("labels the three types as the spec does, and shows an unknown type raw", () => {
    expect(ISSUE_TYPES.map(issueTypeLabel)).toEqual(["Posted by Mistake", "Changed Mind", "Already Found Digger"]);
    expect(issueTypeLabel("spam")).toBe("spam");
  });

  it("refunds mistake 100%, changed_mind 100%, already_filled 50% (spec section 9)", () => {
    expect(REFUND_PERCENTAGES).toEqual({ mistake: 100, changed_mind: 100, already_filled: 50 });
  });
});

describe("issue statuses", () => {
  it("labels and styles pending, approved and rejected; an unknown status is shown raw", () => {
    expect(["pending", "approved", "rejected"].map(issueStatusLabel)).toEqual(["Pending Review", "Approved", "Rejected"]);
    expect(["pending", "approved", "rejected"].map(issueStatusBadge)).toEqual(["secondary", "default", "outline"]);
    expect(issueStatusLabel("escalated")).toBe("escalated");
  });
});

describe("refund amount: amount_paid x refund_percentage / 100, rounded to the cent with Math.round", () => {
  it.each([
    [5000, 100, "$50.00"],
    [5000, 50, "$25.00"],
    [5001, 50, "$25.01"], // 2500.5 cents: half a cent rounds up
    [5003, 50, "$25.02"], // 2501.5 -> 2502
    [10_000, 50, "$50.00"],
    [12_345, 100, "$123.45"],
  ])("%i cents at %i%% -> %s", (paid, percentage, shown) => {
    const cents = refundCents(paid, percentage);
    expect(Number.isInteger(cents)).toBe(true);
    expect(formatPrice(cents)).toBe(shown);
  });
});

describe("the report form's check", () => {
  it.each([
    [{ issueType: "", description: "Already hired someone" }],
    [{ issueType: "mistake", description: "   \n " }],
    [{ issueType: "refund_everything", description: "x" }],
    [{ issueType: null, description: null }],
  ])("asks to fill in all fields for %j", (input) => {
    expect(parseIssueReport(input)).toEqual({ ok: false, error: ISSUE_MESSAGES.fillAll });
  });

  it("trims the description and allows at most 2000 characters", () => {
    expect(parseIssueReport({ issueType: "changed_mind", description: "  They cancelled.  " })).toEqual({
      ok: true,
      value: { issueType: "changed_mind", description: "They cancelled." },
    });
    expect(parseIssueReport({ issueType: "mistake", description: ` ${"a".repeat(2000)} ` }).ok).toBe(true);
    expect(parseIssueReport({ issueType: "mistake", description: "a".repeat(2001) })).toEqual({ ok: false, error: ISSUE_MESSAGES.tooLong });
  });
});
