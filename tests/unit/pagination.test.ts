import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, toPage } from "../../server/pagination.ts";

describe("keyset cursors", () => {
  it("round-trip their values", () => {
    const values = ["2026-11-21T10:00:00.000Z", "0f8c3b6e-1111-4222-8333-944444444444"];
    expect(decodeCursor(encodeCursor(values), 2)).toEqual(values);
  });

  it.each(["", "not base64!", encodeCursor(["only-one"]), encodeCursor([{ a: 1 } as never, 2]), "x".repeat(600)])(
    "treat a malformed cursor %j as the first page",
    (cursor) => {
      expect(decodeCursor(cursor, 2)).toBeNull();
    },
  );

  it("toPage keeps the page size and names the last row when more rows exist", () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    expect(toPage(rows, 2, (r) => [r.n])).toEqual({ items: [{ n: 1 }, { n: 2 }], nextCursor: encodeCursor([2]) });
    expect(toPage(rows, 3, (r) => [r.n]).nextCursor).toBeNull();
  });
});
