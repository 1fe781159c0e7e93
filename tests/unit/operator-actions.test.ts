import { describe, expect, it } from "vitest";
import { auditDetailsText, OPERATOR_ACTION_FILTERS, OPERATOR_ACTIONS } from "../../core/operator-actions.ts";

describe("the Audit log's words", () => {
  it("names each action in the filter differently from its entries, so a search for an entry's words finds entries only", () => {
    const filters = Object.values(OPERATOR_ACTION_FILTERS).map((words) => words.toLowerCase());
    for (const entry of Object.values(OPERATOR_ACTIONS)) {
      expect(filters.filter((words) => words.includes(entry.toLowerCase()))).toEqual([]);
    }
  });

  it("writes an action's details in words, dates as the app shows them", () => {
    expect(auditDetailsText({ credential: "licensed", verifiedUntil: "2027-06-30" })).toBe("Licensed, verified until Jun 30, 2027");
    expect(auditDetailsText({ credential: "bonded" })).toBe("Bonded");
    expect(auditDetailsText({ reports: "1" })).toBe("Closed 1 report");
    expect(auditDetailsText({ reports: "3" })).toBe("Closed 3 reports");
    expect(auditDetailsText({})).toBeNull();
    // A detail this does not know yet is still shown.
    expect(auditDetailsText({ note: "x" })).toBe("note: x");
  });
});
