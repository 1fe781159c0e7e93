import { describe, expect, it } from "vitest";
import {
  ISSUE_MESSAGES,
  ISSUE_TYPES,
  issueStatusBadge,
  issueStatusLabel,
  issueDecisionSchema,
  issueReportSchema,
  issueTypeLabel,
  REFUND_PERCENTAGES,
  refundCents,
  reportTooLateMessage,
  reportWindowClosedText,
  decideByText,
  refundRateText,
  respondByText,
  withOperatorsText,
} from "../../core/lead-issues.ts";
import { fieldMessages, firstMessage } from "../../core/forms.ts";
import { formatPrice } from "../../core/money.ts";

/** The report form's schema as the form reads it: the data, or the first message (the toast). */
function parseIssueReport(input: unknown) {
  const parsed = issueReportSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: firstMessage(parsed.error) };
}

describe("issue types", () => {
  it("labels the types as the spec (and issue 48's fake request) does, and shows an unknown type raw", () => {
    expect(ISSUE_TYPES.map(issueTypeLabel)).toEqual(["Posted by Mistake", "Changed Mind", "Already Found Digger", "Fake or Spam Request", "Wrong Phone Number"]);
    expect(issueTypeLabel("spam")).toBe("spam");
  });

  it("refunds mistake 100%, changed_mind 100%, already_filled 50% (spec section 9), fake_request 100% (issue 48), wrong_phone 100% (issue 49)", () => {
    expect(REFUND_PERCENTAGES).toEqual({ mistake: 100, changed_mind: 100, already_filled: 50, fake_request: 100, wrong_phone: 100 });
  });
});

describe("issue statuses", () => {
  it("labels and styles pending, approved and rejected; an unknown status is shown raw", () => {
    expect(["pending", "approved", "rejected"].map((status) => issueStatusLabel(status))).toEqual(["Pending Review", "Approved", "Rejected"]);
    expect(["pending", "approved", "rejected"].map(issueStatusBadge)).toEqual(["secondary", "default", "outline"]);
    expect(issueStatusLabel("escalated")).toBe("escalated");
  });

  it("labels an issue approved after the deadline 'Approved automatically', and only an approved one", () => {
    expect(issueStatusLabel("approved", "automatic")).toBe("Approved automatically");
    expect(issueStatusLabel("approved", "client")).toBe("Approved");
    expect(issueStatusLabel("rejected", "automatic")).toBe("Rejected");
    expect(issueStatusLabel("pending", null)).toBe("Pending Review");
  });
});

describe("deadlines", () => {
  it("words the client's deadline and the day the report window closed around the server's text in the reader's zone", () => {
    expect(respondByText("Thu, Nov 26, 11:05 AM CST")).toBe("Respond by Thu, Nov 26, 11:05 AM CST");
    // The day as the server wrote it in the reader's zone (issue 47); the digger's words for the client's deadline.
    expect(reportWindowClosedText("Nov 9, 2026")).toBe("Report window closed Nov 9, 2026");
    expect(decideByText("Tue, Dec 1, 7:53 PM CST")).toBe("The client has until Tue, Dec 1, 7:53 PM CST to decide");
    expect(reportTooLateMessage("Nov 9, 2026", 14)).toBe(
      "Report window closed Nov 9, 2026: issues can be reported within 14 days of the purchase.",
    );
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

describe("the report form's field messages", () => {
  it("gives each field its own message, beside the toast's", () => {
    const parsed = issueReportSchema.safeParse({ issueType: "refund_everything", description: "a".repeat(2001) });
    expect(parsed.success).toBe(false);
    expect(firstMessage(parsed.error!)).toBe(ISSUE_MESSAGES.fillAll);
    expect(fieldMessages(parsed.error!)).toEqual({ issueType: ISSUE_MESSAGES.fillAll, description: ISSUE_MESSAGES.tooLong });
  });
});

describe("the decision on an issue", () => {
  it("takes approve or reject on an issue id", () => {
    expect(issueDecisionSchema.parse({ issueId: "any", decision: "approve" })).toEqual({ issueId: "any", decision: "approve" });
    expect(issueDecisionSchema.parse({ issueId: "any", decision: "reject" }).decision).toBe("reject");
  });

  it.each([
    [{ issueId: "any", decision: "refund_twice" }],
    [{ issueId: null, decision: "approve" }],
    [{ issueId: "any", decision: null }],
  ])("refuses %j with 'Failed to update issue'", (input) => {
    const parsed = issueDecisionSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(firstMessage(parsed.error!)).toBe(ISSUE_MESSAGES.updateFailed);
  });
});

describe("the automatic approval's bound (decision 0031)", () => {
  it("shows a digger's refund rate as a share of their purchases, and says when there are none", () => {
    expect(refundRateText({ purchases: 3, refunded: 2 })).toBe("Refund rate (90 days): 67% (2 of 3 purchases)");
    expect(refundRateText({ purchases: 1, refunded: 0 })).toBe("Refund rate (90 days): 0% (0 of 1 purchase)");
    expect(refundRateText({ purchases: 0, refunded: 0 })).toBe("Refund rate (90 days): no purchases");
  });

  it("tells the client who decides an issue past its deadline, and by when", () => {
    expect(withOperatorsText("Sat, Nov 28, 5:08 PM CST")).toBe("Past its deadline: Digs & Gigs decides this issue by Sat, Nov 28, 5:08 PM CST.");
  });
});
