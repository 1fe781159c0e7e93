/** Reading constraint violations out of driver errors (pg, PGlite, wrapped by Drizzle). */

export const UNIQUE_VIOLATION = "23505";

/** The SQLSTATE code and constraint name of a database error, looking through wrappers. */
export function databaseErrorOf(error: unknown): { code?: string; constraint?: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint === "string" ? e.constraint : undefined };
    }
    current = e.cause;
  }
  return {};
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = databaseErrorOf(error);
  return found.code === UNIQUE_VIOLATION && (constraint === undefined || found.constraint === constraint);
}
