import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, TIMESTAMP_UUID_CURSOR, TIMESTAMP_USER_ID_CURSOR, toPage } from "../../server/pagination.ts";

const ID = "0f8c3b6e-1111-4222-8333-944444444444";
const AT = "2026-11-21T10:00:00.123456Z";

describe("keyset cursors", () => {
  it("round-trip their values", () => {
    expect(decodeCursor(encodeCursor([AT, ID]), TIMESTAMP_UUID_CURSOR)).toEqual([AT, ID]);
    expect(decodeCursor(encodeCursor([AT, "uQ1xZ3kP_-9"]), TIMESTAMP_USER_ID_CURSOR)).toEqual([AT, "uQ1xZ3kP_-9"]);
  });

  it.each([
    "",
    "not base64!",
    "x".repeat(600),
    encodeCursor(["only-one"]),
    encodeCursor([{ a: 1 } as never, 2]),
    // The attack's cursor (issue 30, finding 6): not a timestamp.
    encodeCursor(["x", ID]),
    encodeCursor([AT, "not-a-uuid"]),
    encodeCursor([AT, ID, "extra"]),
    encodeCursor([5, ID]),
    encodeCursor([null, ID]),
    encodeCursor([AT.replace(".123456", ""), ID]),
    encodeCursor(["2026-11-21 10:00:00.123456Z", ID]),
    encodeCursor(["2026-02-30T10:00:00.000000Z", ID]),
    encodeCursor(["2026-13-01T10:00:00.000000Z", ID]),
    encodeCursor(["2026-11-21T24:00:00.000000Z", ID]),
    encodeCursor(["0000-01-01T00:00:00.000000Z", ID]),
    Buffer.from(`["${AT}","${ID}"`).toString("base64url"),
  ])("treat a malformed cursor %j as the first page", (cursor) => {
    expect(decodeCursor(cursor, TIMESTAMP_UUID_CURSOR)).toBeNull();
  });

  it("refuse a user id PostgreSQL could not read (a NUL) or that no account has the shape of", () => {
    for (const id of ["a\u0000b", "", "x".repeat(101), "a b", "'; drop table users; --"]) {
      expect(decodeCursor(encodeCursor([AT, id]), TIMESTAMP_USER_ID_CURSOR)).toBeNull();
    }
  });

  it("toPage keeps the page size and names the last row when more rows exist", () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    expect(toPage(rows, 2, (r) => [r.n])).toEqual({ items: [{ n: 1 }, { n: 2 }], nextCursor: encodeCursor([2]) });
    expect(toPage(rows, 3, (r) => [r.n]).nextCursor).toBeNull();
  });
});
