/**
 * Bulk loads inside an open transaction, the way generate.ts loads its world: the table's
 * secondary indexes (those behind no constraint) are dropped for the load and rebuilt after it
 * from their own definitions (`pg_get_indexdef`), so each is built once instead of row by row.
 */
import type pg from "pg";

export async function withoutSecondaryIndexes(client: pg.Client, table: string, load: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i where i.indrelid = $1::regclass
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [table],
  );
  for (const index of indexes) await client.query(`drop index ${index.name}`);
  await load();
  for (const index of indexes) await client.query(index.definition);
}
