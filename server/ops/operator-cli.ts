/**
 * `npm run operator -- grant EMAIL` / `revoke EMAIL`: the only way to give or take the operator
 * role (issue 22). It works on PostgreSQL at any time; the embedded database (PGlite) must
 * never be opened by two processes, so with it, run this only while the server is stopped.
 * Both are written to the audit trail, with the command as the operator ("cli"). In production
 * only an account with two-factor authentication on is granted the role.
 */
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { setOperator } from "./operators.ts";

const USAGE = "Usage: npm run operator -- grant EMAIL | revoke EMAIL";

try {
  const [verb, email, ...rest] = process.argv.slice(2);
  if ((verb !== "grant" && verb !== "revoke") || !email || rest.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const outcome = await setOperator(database.db, email, verb === "grant", { requireTwoFactor: config.mode === "production" });
    console.log(outcome.message);
    if (!outcome.ok) process.exitCode = 1;
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
