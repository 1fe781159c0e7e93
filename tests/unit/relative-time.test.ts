import { describe, expect, it } from "vitest";
import { timeAgo } from "../../core/relative-time.ts";

const now = new Date("2026-11-21T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("timeAgo", () => {
  it.each([
    [10, "just now"],
    [60, "1 minute ago"],
    [5 * 60, "5 minutes ago"],
    [3 * 3600, "3 hours ago"],
    [26 * 3600, "1 day ago"],
    [15 * 24 * 3600, "2 weeks ago"],
    [400 * 24 * 3600, "1 year ago"],
  ])("%i seconds ago reads %s", (seconds, text) => {
    expect(timeAgo(ago(seconds), now)).toBe(text);
  });

  it("never speaks of the future: a clock ahead of ours reads just now", () => {
    expect(timeAgo(new Date(now.getTime() + 60_000), now)).toBe("just now");
  });
});
