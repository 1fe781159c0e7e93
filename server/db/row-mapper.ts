/**
 * A prepared select's rows mapped into its result's shape by a mapper worked out once per
 * statement (issue 52). Drizzle maps each cell on every call by asking what its field is (column,
 * SQL, alias, subquery: `is` walks the class chain), then walks the field's path; on the
 * signed-in lists that was about a twentieth of a request's CPU. This mapper asks once, then only
 * decodes and places each cell, with Drizzle's rules kept: a field's `mapFromDriverValue` for a
 * non-null cell, nested objects by path, and an object of a left-joined table's columns that came
 * back null in its first column made null (`mapResultRow` in drizzle-orm/utils.js).
 * tests/integration/prepared-statements.test.ts compares its rows with Drizzle's own.
 */
import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";

/** A selected field as Drizzle lists it (`orderSelectedFields`), and its decoder. */
interface SelectedField {
  path: string[];
  field: unknown;
}
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}
type Row = Record<string, unknown>;

/** What Drizzle's `mapResultRow` decides per cell, decided once. */
interface Cell {
  /** The path's objects, then its key. */
  parents: string[];
  key: string;
  decoder: Decoder;
  /** A column of a table selected as an object (a two-part path): its table, for the all-null rule. */
  table: string | null;
}

/** Drizzle's decoder of a field (its SQL's `decoder` is internal to its types). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  const decoding = (sql: unknown) => (sql as { decoder: Decoder }).decoder;
  if (is(field, SQL)) return decoding(field);
  if (is(field, Subquery)) return decoding(field._.sql);
  return decoding((field as SQL.Aliased).sql);
}

/**
 * The mapper of a select's rows (array mode), from its fields and its joins' nullability
 * (`joinsNotNullableMap`: a table whose object may be null when all its columns are).
 */
export function rowMapper(fields: SelectedField[], joinsNotNullableMap: Record<string, boolean> | undefined): (rows: unknown[][]) => Row[] {
  const cells: Cell[] = fields.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    key: path.at(-1)!,
    decoder: decoderOf(field),
    table: joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null,
  }));
  // Drizzle's rule, as it applies it: an object whose table columns all come from one table that a
  // join may leave out is null when its first such column is null.
  const objects = new Map<string, { first: number; table: string | false }>();
  cells.forEach((cell, index) => {
    if (cell.table === null) return;
    const object = cell.parents[0]!;
    const seen = objects.get(object);
    if (!seen) objects.set(object, { first: index, table: cell.table });
    else if (seen.table !== cell.table) seen.table = false;
  });
  const nullable = [...objects].filter(([, { table }]) => table !== false && !joinsNotNullableMap![table]).map(([object, { first }]) => ({ object, first }));

  const mapRow = (row: unknown[]): Row => {
    const result: Row = {};
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      let node = result;
      for (const parent of cell.parents) node = (node[parent] ??= {}) as Row;
      const raw = row[i];
      node[cell.key] = raw === null ? null : cell.decoder.mapFromDriverValue(raw);
    }
    for (const { object, first } of nullable) {
      if (row[first] === null) result[object] = null;
    }
    return result;
  };
  return (rows) => rows.map(mapRow);
}
