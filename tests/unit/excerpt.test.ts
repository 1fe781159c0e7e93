import { describe, expect, it } from "vitest";
import { excerpt } from "../../core/excerpt.ts";

describe("excerpt", () => {
  it("keeps a text that fits, trimmed", () => {
    expect(excerpt("  Fix the gate.  ", 20)).toBe("Fix the gate.");
    expect(excerpt("x".repeat(20), 20)).toBe("x".repeat(20));
  });

  it("cuts a longer text at a word boundary and marks the cut", () => {
    const cut = excerpt("Replace the rotten fence posts along the north side of the garden", 30);
    expect(cut).toBe("Replace the rotten fence…");
    expect(cut.length).toBeLessThanOrEqual(30);
  });

  it("cuts inside a word when no space comes late enough", () => {
    const cut = excerpt(`a ${"b".repeat(40)}`, 20);
    expect(cut).toBe(`a ${"b".repeat(17)}…`);
    expect(cut.length).toBe(20);
  });
});
