/**
 * The signed Confirm / Need to change link of a visit's 24-hour reminder (issue 50,
 * server/mail/visit-answer-token.ts): only this secret, this visit, the sequence it names and
 * the visit's client make a token that verifies; any change to it is worthless. And the 'Add
 * to Google Calendar' link's times in UTC (server/mail/google-calendar-link.ts).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { googleCalendarLink } from "../../server/mail/google-calendar-link.ts";
import { signVisitAnswerToken, verifyVisitAnswerToken, visitAnswerUrl, visitOfAnswerToken } from "../../server/mail/visit-answer-token.ts";

const SECRET = "a-test-secret-that-is-long-enough-000";
const visit = { id: randomUUID(), sequence: 3, clientId: "client-1" };

describe("a visit's answer token", () => {
  it("names its visit and sequence and verifies for that visit and client only", () => {
    const token = signVisitAnswerToken(SECRET, visit);
    expect(visitOfAnswerToken(token)).toEqual({ visitId: visit.id, sequence: 3 });
    expect(verifyVisitAnswerToken(SECRET, token, visit)).toBe(true);
    expect(verifyVisitAnswerToken("another-secret-that-is-long-enough-00", token, visit)).toBe(false);
    expect(verifyVisitAnswerToken(SECRET, token, { ...visit, clientId: "client-2" })).toBe(false);
    expect(verifyVisitAnswerToken(SECRET, token, { ...visit, id: randomUUID() })).toBe(false);
  });

  it("is worthless with any character changed, its sequence rewritten, or cut short", () => {
    const token = signVisitAnswerToken(SECRET, visit);
    const last = token.at(-1) === "A" ? "B" : "A";
    expect(verifyVisitAnswerToken(SECRET, `${token.slice(0, -1)}${last}`, visit)).toBe(false);
    expect(verifyVisitAnswerToken(SECRET, token.replace(`.${visit.sequence}.`, ".4."), visit)).toBe(false);
    expect(verifyVisitAnswerToken(SECRET, token.slice(0, -1), visit)).toBe(false);
    expect(visitOfAnswerToken(token.slice(0, -1))).toBeNull();
    expect(visitOfAnswerToken("forged.token")).toBeNull();
    expect(visitOfAnswerToken(undefined)).toBeNull();
  });

  it("goes in the link with its answer, encoded", () => {
    const token = signVisitAnswerToken(SECRET, visit);
    const url = new URL(visitAnswerUrl("https://digs.example", token, "change"));
    expect(url.pathname).toBe("/visit-reply");
    expect(url.searchParams.get("token")).toBe(token);
    expect(url.searchParams.get("answer")).toBe("change");
  });
});

describe("'Add to Google Calendar'", () => {
  it("writes both instants in UTC and every text as a value", () => {
    const link = googleCalendarLink({
      title: "Visit: Fix & paint?",
      start: new Date("2027-11-07T06:30:00.000Z"),
      end: new Date("2027-11-07T07:30:00.000Z"),
      details: "Line one\nhttps://digs.example/messages/1",
      location: "12 Elm St, Boulder; CO",
    });
    expect(link).toContain("&dates=20271107T063000Z/20271107T073000Z&");
    const url = new URL(link);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: "TEMPLATE",
      text: "Visit: Fix & paint?",
      dates: "20271107T063000Z/20271107T073000Z",
      details: "Line one\nhttps://digs.example/messages/1",
      location: "12 Elm St, Boulder; CO",
    });
  });
});
