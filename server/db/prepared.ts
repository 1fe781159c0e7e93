/**
 * Statements a page runs on every request, built once (issue 52, decision 0081). Drizzle turns a
 * query's parts into SQL text on every call (about a tenth of a signed-in page's CPU), and
 * PostgreSQL parses and plans an unnamed statement every time. A statement here is built on its
 * first use per database handle and shape, with `placeholder(name)` where a value changes
 * between calls, then only run with the values. A named one (the default) is parsed by
 * PostgreSQL once per connection (`pg` sends its name after the first time) and may keep a
 * generic plan; one whose plan must follow its values (a text search, whose plan depends on the
 * words) is built once but sent unnamed, planned for its values each time. PGlite runs them all
 * unnamed.
 *
 * A shape is what changes the SQL's text (a cursor or not, a filter or not): each shape is its
 * own statement, named `<name>:<shape's keys that are set>`.
 */
import { fillPlaceholders, sql, type Query, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "./client.ts";
import { rowMapper } from "./row-mapper.ts";

/** A value the statement takes at each call, by name: `sql.placeholder`. */
export const placeholder = sql.placeholder;

/** The shape of a statement: its keys set to true (or to a value naming a variant) change its text. */
export type Shape = Record<string, boolean | string | number | null | undefined>;

interface PreparedStatement<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

interface Options<S> {
  /** false, or false for the shape: planned for its values each time (sent unnamed). */
  named?: boolean | ((shape: S) => boolean);
}

/** The same casing as the handles' (server/db/client.ts), for statements written as raw SQL. */
const dialect = new PgDialect({ casing: "snake_case" });

function shapeKey(shape: Shape | undefined): string {
  if (!shape) return "";
  const set = Object.entries(shape).filter(([, value]) => value !== false && value !== null && value !== undefined);
  return set.map(([key, value]) => (value === true ? key : `${key}=${String(value)}`)).join(",");
}

/**
 * Statements by database handle and shape, each made by `make` on its first use. A transaction
 * is a handle of its own, bound to its connection: its statements are made again per
 * transaction (the SQL's text is not), and run by the same name.
 */
function perHandle<R, S extends Shape | undefined>(
  name: string,
  make: (db: Database | Transaction, shape: S, statementName: string) => PreparedStatement<R>,
  options: Options<S>,
) {
  const handles = new WeakMap<Database | Transaction, Map<string, PreparedStatement<R>>>();
  return (db: Database | Transaction, shape: S, values: Record<string, unknown>): Promise<R> => {
    let statements = handles.get(db);
    if (!statements) {
      statements = new Map();
      handles.set(db, statements);
    }
    const key = shapeKey(shape);
    let statement = statements.get(key);
    if (!statement) {
      // pg sends a statement without a name ("") unnamed: parsed and planned at each call.
      const named = typeof options.named === "function" ? options.named(shape) : options.named !== false;
      statement = make(db, shape, !named ? "" : key ? `${name}:${key}` : name);
      statements.set(key, statement);
    }
    return statement.execute(values);
  };
}

/**
 * A query built with Drizzle's query builder, its result mapped as the builder maps it:
 * `build(db, shape)` returns the query (with placeholders), unexecuted.
 */
export function preparedQuery<R, S extends Shape | undefined = undefined>(
  name: string,
  build: (db: Database, shape: S) => { prepare(name: string): PreparedStatement<R> },
  options: Options<S> = {},
) {
  return perHandle<R, S>(
    name,
    (db, shape, statementName) => {
      const statement = build(db, shape).prepare(statementName) as PreparedStatement<R> & DrizzlePrepared;
      // Drizzle's prepared select keeps its fields and joins for its own mapping, done per cell on
      // every call; its custom mapper (what its relational queries use) takes the rows instead.
      if (statement.fields && !statement.customResultMapper) statement.customResultMapper = rowMapper(statement.fields, statement.joinsNotNullableMap);
      return statement;
    },
    options,
  );
}

/** What a Drizzle prepared select holds for mapping its rows (drizzle-orm's PgPreparedQuery, 0.45). */
interface DrizzlePrepared {
  fields?: Parameters<typeof rowMapper>[0];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** Raw SQL, its rows as `queryRows` gives them: `build(shape)` returns the SQL (with placeholders). */
export function preparedRows<T, S extends Shape | undefined = undefined>(name: string, build: (shape: S) => SQL, options: Options<S> = {}) {
  const texts = new Map<string, Query>();
  const run = perHandle<{ rows: T[] }, S>(
    name,
    (db, shape, statementName) => {
      const key = shapeKey(shape);
      let query = texts.get(key);
      if (!query) {
        query = dialect.sqlToQuery(build(shape));
        texts.set(key, query);
      }
      return db._.session.prepareQuery(query, undefined, statementName, false) as unknown as PreparedStatement<{ rows: T[] }>;
    },
    options,
  );
  return async (db: Database | Transaction, shape: S, values: Record<string, unknown>): Promise<T[]> => (await run(db, shape, values)).rows;
}

/** A statement's text and its parameters with `values` in its placeholders (the bench's raw loop, EXPLAIN). */
export function statementWithValues(query: SQL, values: Record<string, unknown>): { sql: string; params: unknown[] } {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { sql: text, params: fillPlaceholders(params, values) };
}

/** Runs SQL with placeholders once, unnamed, with `values` (a test's EXPLAIN of a prepared statement's query). */
export async function queryWithValues<T>(db: Database | Transaction, query: SQL, values: Record<string, unknown>): Promise<T[]> {
  const statement = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, "", false) as unknown as PreparedStatement<{ rows: T[] }>;
  return (await statement.execute(values)).rows;
}
