/**
 * Statements built once (server/db/prepared.ts, issue 52): the same rows as the query built per
 * call, one statement per shape, and on PostgreSQL a named statement parsed once per connection
 * while an unnamed one (planned for its values) is not kept.
 */
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type DatabaseHandle } from "../../server/db/client.ts";
import { placeholder, preparedQuery, preparedRows } from "../../server/db/prepared.ts";
import { categories } from "../../server/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const [home] = await database.db.insert(categories).values({ slug: "t-home", name: "Home Repair" }).returning({ id: categories.id });
  await database.db.insert(categories).values([
    { slug: "t-garden", name: "Garden" },
    { slug: "t-tutoring", name: "Tutoring" },
    { slug: "t-roof", name: "Roofing", parentCategoryId: home!.id },
    { slug: "t-plumb", name: "Plumbing", parentCategoryId: home!.id },
  ]);
});
afterAll(async () => {
  await database.destroy();
});

const byName = preparedRows<{ name: string; parent: string | null }, { parent: boolean }>("test_categories", ({ parent }) =>
  parent
    ? sql`select ${categories.name} as name, ${categories.parentCategoryId} as parent from ${categories} where ${categories.parentCategoryId} = ${placeholder("parent")} order by ${categories.name} limit ${placeholder("limit")}`
    : sql`select ${categories.name} as name, ${categories.parentCategoryId} as parent from ${categories} where ${categories.parentCategoryId} is null order by ${categories.name} limit ${placeholder("limit")}`,
);

const newestCategories = preparedQuery("test_newest_categories", (db) =>
  db
    .select({ id: categories.id, name: categories.name, parent: { id: categories.parentCategoryId } })
    .from(categories)
    .where(eq(categories.name, placeholder("name")))
    .orderBy(desc(categories.name)),
);

const unnamed = preparedRows<{ name: string }>("test_search", () => sql`select ${categories.name} as name from ${categories} where lower(${categories.name}) like ${placeholder("pattern")} order by 1`, { named: false });

describe("prepared statements", () => {
  it("give the rows of the query built per call, for each shape and values", async () => {
    const { db } = database;
    const topLevel = await queryRows<{ name: string; parent: string | null }>(db, sql`select name, parent_category_id as parent from categories where parent_category_id is null order by name limit 3`);
    expect(topLevel.length).toBe(3);
    expect(await byName(db, { parent: false }, { limit: 3 })).toEqual(topLevel);
    const [parent] = await queryRows<{ id: string }>(db, sql`select parent_category_id as id from categories where parent_category_id is not null limit 1`);
    const children = await queryRows<{ name: string; parent: string | null }>(db, sql`select name, parent_category_id as parent from categories where parent_category_id = ${parent!.id} order by name limit 50`);
    expect(children.length).toBeGreaterThan(0);
    expect(await byName(db, { parent: true }, { parent: parent!.id, limit: 50 })).toEqual(children);
    // The same statements again, other values: nothing of the first call is kept but the text.
    expect(await byName(db, { parent: false }, { limit: 1 })).toEqual(topLevel.slice(0, 1));

    const [one] = await db.select({ id: categories.id, name: categories.name, parentId: categories.parentCategoryId }).from(categories).limit(1);
    expect(await newestCategories(db, undefined, { name: one!.name })).toEqual([{ id: one!.id, name: one!.name, parent: { id: one!.parentId } }]);
    expect(await newestCategories(db, undefined, { name: "no such category" })).toEqual([]);

    const pattern = `%${one!.name.toLowerCase().slice(0, 3)}%`;
    const searched = await queryRows<{ name: string }>(db, sql`select name from categories where lower(name) like ${pattern} order by 1`);
    expect(searched.length).toBeGreaterThan(0);
    expect(await unnamed(db, undefined, { pattern })).toEqual(searched);
  });

  it.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, a named statement is parsed once per connection under its shape's name; an unnamed one is not kept", async () => {
    let handle: DatabaseHandle | undefined;
    try {
      handle = await openDatabase({ kind: "postgres", url: database.url!, poolSize: 1 });
      const { db } = handle;
      await byName(db, { parent: false }, { limit: 2 });
      await byName(db, { parent: false }, { limit: 2 });
      await byName(db, { parent: true }, { parent: "00000000-0000-0000-0000-000000000000", limit: 2 });
      await unnamed(db, undefined, { pattern: "%a%" });
      const kept = await queryRows<{ name: string }>(db, sql`select name from pg_prepared_statements order by name`);
      expect(kept.map((row) => row.name)).toEqual(["test_categories", "test_categories:parent"]);
    } finally {
      await handle?.close();
    }
  });
});
