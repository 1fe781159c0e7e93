/**
 * Reading driver errors (pg, PGlite, wrapped by Drizzle): constraint violations, and whether
 * the database could not be reached at all.
 */

const UNIQUE_VIOLATION = "23505";

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

/** Socket errors that mean the server could not be reached or dropped the connection. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** SQLSTATE class 08 (connection exception), and the server shutting down or starting up. */
const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123])$/;
/** What node-postgres says, without a code, when a connection is lost or never comes. */
const POOL_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/i;

/**
 * Whether the error means the database is away (down, restarting, unreachable or not
 * answering) rather than that a query failed: a request that fails so is answered 503 with
 * Retry-After instead of 500 (server/app.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "string" && (NETWORK_CODES.has(e.code) || UNAVAILABLE_STATES.test(e.code))) return true;
    if (typeof e.message === "string" && POOL_MESSAGES.test(e.message)) return true;
    current = e.cause;
  }
  return false;
}
