/**
 * server/db/row-mapper.ts (issue 52): a prepared select's rows mapped as Drizzle's own
 * `mapResultRow` maps them: decoders, nested objects, and a left-joined table's object made null
 * when its first column is null (only then, and only when all its columns are that table's).
 */
import * as drizzle from "drizzle-orm";
import { sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { rowMapper } from "../../server/db/row-mapper.ts";

// Drizzle's own (exported at run time, internal to its types).
const { mapResultRow, orderSelectedFields } = drizzle as unknown as {
  mapResultRow: (fields: never, row: unknown[], joins: Record<string, boolean> | undefined) => Record<string, unknown>;
  orderSelectedFields: (fields: Record<string, unknown>) => unknown;
};

const people = pgTable("people", { id: text().primaryKey(), name: text(), age: integer() });
const pets = pgTable("pets", { id: text().primaryKey(), name: text(), born: timestamp({ mode: "date" }) });

const fields = orderSelectedFields({
  id: people.id,
  person: { name: people.name, age: people.age },
  // A left-joined table's object: null when its first column is.
  pet: { id: pets.id, name: pets.name, born: pets.born },
  // Mixed tables: never made null.
  mixed: { petName: pets.name, personName: people.name },
  count: sql<number>`count(*)`.mapWith(Number),
  label: sql<string>`'x'`.as("label"),
  deep: { inner: { value: sql<number>`1`.mapWith(Number) } },
}) as Parameters<typeof rowMapper>[0];
const joins = { people: true, pets: false };

const rows: unknown[][] = [
  ["p1", "Ann", 30, "k1", "Rex", "2020-01-02 03:04:05", "Rex", "Ann", "7", "x", "1"],
  ["p2", null, null, null, null, null, null, null, "0", null, null],
  // The pet's first column null, its others not: Drizzle still makes it null.
  ["p3", "Bo", null, null, "Ghost", "2021-05-06 07:08:09", null, "Bo", "2", "x", "3"],
  // The pet's first column set, the rest null: kept.
  ["p4", "Cy", 4, "k4", null, null, null, null, "1", "x", "1"],
];

describe("the prepared selects' row mapper", () => {
  it("maps rows as Drizzle's mapResultRow does", () => {
    const expected = rows.map((row) => mapResultRow(fields as never, row, joins));
    expect(rowMapper(fields, joins)(rows)).toEqual(expected);
    expect(expected[2]).toMatchObject({ pet: null, mixed: { petName: null, personName: "Bo" }, count: 2 });
    expect(expected[0]!.pet).toEqual({ id: "k1", name: "Rex", born: expect.any(Date) });
  });

  it("makes nothing null without joins that may leave a table out", () => {
    const inner = { people: true, pets: true };
    expect(rowMapper(fields, inner)(rows)).toEqual(rows.map((row) => mapResultRow(fields as never, row, inner)));
    expect(rowMapper(fields, undefined)(rows)).toEqual(rows.map((row) => mapResultRow(fields as never, row, undefined)));
  });
});
