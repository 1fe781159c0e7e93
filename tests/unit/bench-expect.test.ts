import { describe, expect, it } from "vitest";
import { answerProblem, missingTexts } from "../../bench/lib/expect.ts";

const gigs = { what: "the 2 gigs of Browse Gigs", texts: ["5f0c-a", "5f0c-b"] };

describe("what a measured request must answer", () => {
  it("accepts a 200 that shows every expected text", () => {
    expect(answerProblem("/browse-gigs", 200, `<a href="/gig/5f0c-a">x</a><a href="/gig/5f0c-b">y</a>`, gigs)).toBeNull();
  });

  it("refuses an empty list, naming what is missing", () => {
    const problem = answerProblem("/browse-gigs", 200, "<p>No gigs found. Try adjusting your filters.</p>", gigs);
    expect(problem).toBe(`/browse-gigs does not show the 2 gigs of Browse Gigs: 2 of 2 missing (first: "5f0c-a")`);
  });

  it("refuses a data request's redirect (202) and a page's (3xx), whatever the body", () => {
    expect(answerProblem("/gig/1.data", 202, `5f0c-a 5f0c-b`, gigs)).toBe("/gig/1.data answered 202, not 200 (a data request's redirect)");
    expect(answerProblem("/gig/1", 302, `5f0c-a 5f0c-b`, gigs, "/browse-gigs")).toBe("/gig/1 answered 302 (to /browse-gigs), not 200");
  });

  it("finds a text as a page escapes it and as a data request does", () => {
    expect(missingTexts(`<h1>Fix &amp; paint a &quot;barn&quot;</h1>`, [`Fix & paint a "barn"`])).toEqual([]);
    expect(missingTexts(`["Fix & paint a \\"barn\\""]`, [`Fix & paint a "barn"`])).toEqual([]);
    expect(missingTexts(`<h1>Fix paint a barn</h1>`, [`Fix & paint a "barn"`])).toEqual([`Fix & paint a "barn"`]);
  });
});
