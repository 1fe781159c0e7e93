import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../core/redirect.ts";

describe("safeRedirect", () => {
  it.each([
    ["/post-gig", "/post-gig"],
    ["/gig/123?payment=success", "/gig/123?payment=success"],
    ["/a/../b", "/b"],
  ])("keeps the on-site path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/\u0000/x",
    "/x\n/y",
    "",
    null,
    undefined,
  ])("falls back to / for %j", (input) => {
    expect(safeRedirect(input as string)).toBe("/");
  });
});
