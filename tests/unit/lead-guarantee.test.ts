/**
 * The reply guarantee on a lead card in words (core/lead-guarantee.ts, issue 48): each line the
 * database decides, with its dates as the reader's zone writes them, and the thread's evidence.
 */
import { describe, expect, it } from "vitest";
import { leadGuaranteeTexts, writeToBeCoveredText, type LeadGuaranteeFacts } from "../../core/lead-guarantee.ts";
import { coveredText, GUARANTEE_TEXTS } from "../../core/reply-guarantee.ts";

const time = { deadline: (v: Date | string) => `deadline(${String(v)})`, dateTime: (v: Date | string) => `at(${v instanceof Date ? v.toISOString() : v})` };
const bought = new Date("2026-11-20T10:00:00Z");
const facts = (over: Partial<LeadGuaranteeFacts>): LeadGuaranteeFacts => ({ line: null, dueAt: null, writeBy: "2026-11-21T10:00:00Z", evidence: null, ...over });

describe("the lead card's reply guarantee", () => {
  it("says each line in core's words, dates by the reader's zone", () => {
    expect(leadGuaranteeTexts(facts({ line: "covered", dueAt: "2026-11-22T12:00:00Z" }), time).line).toBe(coveredText("deadline(2026-11-22T12:00:00Z)"));
    expect(leadGuaranteeTexts(facts({ line: "write" }), time).line).toBe(writeToBeCoveredText("deadline(2026-11-21T10:00:00Z)"));
    expect(leadGuaranteeTexts(facts({ line: "not_covered" }), time).line).toBe(GUARANTEE_TEXTS.notCovered);
    expect(leadGuaranteeTexts(facts({ line: "refunded" }), time).line).toBe(GUARANTEE_TEXTS.refunded);
    expect(leadGuaranteeTexts(facts({ line: "escalated" }), time).line).toBe(GUARANTEE_TEXTS.escalated);
    expect(leadGuaranteeTexts(facts({ line: "declined" }), time).line).toBe(GUARANTEE_TEXTS.declined);
    expect(leadGuaranteeTexts(facts({}), time)).toEqual({ line: null, evidence: null });
  });

  it("puts the thread's evidence on one line: opened or not, the counts, the first message's delay", () => {
    const evidence = { purchasedAt: bought, diggerFirstAt: new Date(bought.getTime() + 2 * 3_600_000), clientOpenedAt: null, diggerMessages: 2, clientMessages: 0 };
    expect(leadGuaranteeTexts(facts({ evidence }), time).evidence).toBe("Client has not opened your thread · Messages: 2 from the digger, 0 from the client · First message 2 hours after buying");
    const opened = { ...evidence, clientOpenedAt: new Date("2026-11-21T08:00:00Z"), clientMessages: 1 };
    expect(leadGuaranteeTexts(facts({ evidence: opened }), time).evidence).toBe(
      "Client opened your thread at(2026-11-21T08:00:00.000Z) · Messages: 2 from the digger, 1 from the client · First message 2 hours after buying",
    );
    expect(leadGuaranteeTexts(facts({ evidence: { ...evidence, diggerFirstAt: null, diggerMessages: 0 } }), time).evidence).toContain("No message from the digger yet");
  });
});
