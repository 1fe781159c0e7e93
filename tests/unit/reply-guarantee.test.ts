/**
 * The client's record as a digger sees it before buying (issue 48): the reply lines from
 * RECORD_MIN_LEADS leads, the median's band (the slower middle reply with an even count), the
 * hire line once somebody bought a gig, and 'New client' only without any history.
 */
import { describe, expect, it } from "vitest";
import { clientRecordLines, clientReviewLines, NEW_CLIENT, RECORD_MIN_LEADS, usualReplyText, type ClientRecordFigures } from "#core/reply-guarantee.ts";
import { CLIENT_REVIEW_QUESTIONS, clientRatingLine, yesShareLine } from "#core/two-way-reviews.ts";

const NONE: ClientRecordFigures = {
  leads: 0,
  replied: 0,
  withinHour: 0,
  withinFewHours: 0,
  withinDay: 0,
  leadsAllTime: 0,
  gigsBought: 0,
  gigsHired: 0,
  visitsKept: 0,
  visitsCounted: 0,
  reviewCount: 0,
  reviewAverage: 0,
  describedYes: 0,
  describedNo: 0,
  reachableYes: 0,
  reachableNo: 0,
  paidYes: 0,
  paidNo: 0,
};
const record = (over: Partial<ClientRecordFigures>): ClientRecordFigures => ({ ...NONE, ...over });

describe("the client's record lines", () => {
  it("says 'New client' only with no history of any kind", () => {
    expect(clientRecordLines(NONE)).toEqual([NEW_CLIENT]);
    // A gig bought, nobody wrote yet: a hire line, not 'New client'.
    expect(clientRecordLines(record({ gigsBought: 1 }))).toEqual(["Hired on 0 of 1 gig"]);
    // Leads older than 12 months only: no reply line, and not new either.
    expect(clientRecordLines(record({ leadsAllTime: 4, gigsBought: 2, gigsHired: 1 }))).toEqual(["Hired on 1 of 2 gigs"]);
    expect(clientRecordLines(record({ leadsAllTime: 1 }))).not.toContain(NEW_CLIENT);
  });

  it("shows the reply lines from 3 leads of the last 12 months, not 2", () => {
    expect(RECORD_MIN_LEADS).toBe(3);
    const two = record({ leads: 2, replied: 2, withinHour: 2, leadsAllTime: 2, gigsBought: 1 });
    expect(clientRecordLines(two)).toEqual(["Hired on 0 of 1 gig"]);
    const three = record({ leads: 3, replied: 2, withinHour: 2, leadsAllTime: 3, gigsBought: 2, gigsHired: 1 });
    expect(clientRecordLines(three)).toEqual(["Replied to 2 of 3 diggers", "Usually replies within an hour", "Hired on 1 of 2 gigs"]);
  });

  it("leaves the usual-reply line out when no reply, or the median reply, came within a day", () => {
    expect(clientRecordLines(record({ leads: 3, leadsAllTime: 3, gigsBought: 3 }))).toEqual(["Replied to 0 of 3 diggers", "Hired on 0 of 3 gigs"]);
    // Three replies, two of them after more than a day.
    expect(clientRecordLines(record({ leads: 3, replied: 3, withinHour: 1, leadsAllTime: 3, gigsBought: 1 }))).toEqual(["Replied to 3 of 3 diggers", "Hired on 0 of 1 gig"]);
  });

  it("ends with 'Kept {k} of {n} visits' from 3 counted visits, not 2 (issue 50)", () => {
    expect(clientRecordLines(record({ gigsBought: 1, visitsKept: 2, visitsCounted: 2 }))).toEqual(["Hired on 0 of 1 gig"]);
    expect(clientRecordLines(record({ gigsBought: 1, gigsHired: 1, visitsKept: 2, visitsCounted: 3 }))).toEqual(["Hired on 1 of 1 gig", "Kept 2 of 3 visits"]);
  });
});

describe("the diggers' reviews of the client in the record (issue 51)", () => {
  it("adds '4.8 from 3 diggers' and each answered question's share of yes after the other lines", () => {
    const reviewed = record({ gigsBought: 3, gigsHired: 3, reviewCount: 3, reviewAverage: 4.67, describedYes: 2, describedNo: 1, paidYes: 3 });
    expect(clientRecordLines(reviewed)).toEqual([
      "Hired on 3 of 3 gigs",
      "4.7 from 3 diggers",
      "The job was as described: 67% yes (3 answers)",
      // 'Easy to reach' nobody answered: no line.
      "Paid as agreed: 100% yes (3 answers)",
    ]);
  });

  it("has no review line before a published review, even with answers counted elsewhere", () => {
    expect(clientReviewLines(record({ gigsBought: 1 }))).toEqual([]);
    expect(clientRecordLines(record({ gigsBought: 1, gigsHired: 1 }))).toEqual(["Hired on 1 of 1 gig"]);
  });

  it("keeps 'New client' as the reply guarantee's rule: the lines only follow a history", () => {
    expect(clientRecordLines(NONE)).toEqual([NEW_CLIENT]);
  });

  it("labels the shares with the form's questions, in the form's order", () => {
    const all = record({ gigsBought: 1, reviewCount: 1, reviewAverage: 5, describedYes: 1, reachableNo: 1, paidYes: 1 });
    expect(clientReviewLines(all).slice(1).map((line) => line.split(":")[0])).toEqual(CLIENT_REVIEW_QUESTIONS.map((q) => q.label));
    expect(clientReviewLines(all)).toContain("Easy to reach: 0% yes (1 answer)");
  });
});

describe("clientRatingLine and yesShareLine", () => {
  it("says the average with one decimal (halves up, as a digger's rating) and the count of diggers", () => {
    expect(clientRatingLine(4.8, 3)).toBe("4.8 from 3 diggers");
    expect(clientRatingLine(5, 1)).toBe("5.0 from 1 digger");
    // 4.85 is 4.8499... in binary: still '4.9', as formatRating shows a digger's.
    expect(clientRatingLine(4.85, 20)).toBe("4.9 from 20 diggers");
    expect(clientRatingLine(0, 0)).toBeNull();
  });

  it("gives the share of yes among the answers, rounded, or nothing without an answer", () => {
    expect(yesShareLine("Paid as agreed", 3, 0)).toBe("Paid as agreed: 100% yes (3 answers)");
    expect(yesShareLine("Easy to reach", 1, 2)).toBe("Easy to reach: 33% yes (3 answers)");
    expect(yesShareLine("Easy to reach", 0, 1)).toBe("Easy to reach: 0% yes (1 answer)");
    expect(yesShareLine("The job was as described", 2, 1)).toBe("The job was as described: 67% yes (3 answers)");
    expect(yesShareLine("Paid as agreed", 0, 0)).toBeNull();
  });
});

describe("the usual reply: the median's band", () => {
  it("takes the band of the middle reply with an odd count", () => {
    expect(usualReplyText({ replied: 1, withinHour: 1, withinFewHours: 0, withinDay: 0 })).toBe("Usually replies within an hour");
    expect(usualReplyText({ replied: 3, withinHour: 1, withinFewHours: 1, withinDay: 1 })).toBe("Usually replies within a few hours");
    expect(usualReplyText({ replied: 3, withinHour: 2, withinFewHours: 0, withinDay: 1 })).toBe("Usually replies within an hour");
    expect(usualReplyText({ replied: 3, withinHour: 0, withinFewHours: 1, withinDay: 2 })).toBe("Usually replies within a day");
    expect(usualReplyText({ replied: 3, withinHour: 1, withinFewHours: 0, withinDay: 0 })).toBeNull();
    expect(usualReplyText({ replied: 0, withinHour: 0, withinFewHours: 0, withinDay: 0 })).toBeNull();
  });

  it("takes the slower middle reply with an even count", () => {
    expect(usualReplyText({ replied: 2, withinHour: 1, withinFewHours: 1, withinDay: 0 })).toBe("Usually replies within a few hours");
    expect(usualReplyText({ replied: 4, withinHour: 2, withinFewHours: 0, withinDay: 2 })).toBe("Usually replies within a day");
    expect(usualReplyText({ replied: 4, withinHour: 3, withinFewHours: 0, withinDay: 1 })).toBe("Usually replies within an hour");
    // Two within a day, two slower: the slower middle one took more than a day.
    expect(usualReplyText({ replied: 4, withinHour: 0, withinFewHours: 0, withinDay: 2 })).toBeNull();
  });
});
