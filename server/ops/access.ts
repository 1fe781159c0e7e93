/**
 * The operator console's own checks beyond its access rule (`operator`, one of the rules of
 * server/guards.ts: an operator, with two-factor in production; everyone else gets the
 * 404 page). Every /ops operation declares that rule (docs/decisions/0026-operator-console.md,
 * 0044-one-shape-per-operation.md).
 */
import type { Config } from "../config.ts";
import { operator, type Operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

export type { Operator } from "../guards.ts";

/** Local mode: the banner that says production would ask for two-factor authentication. */
function twoFactorNotice(config: Pick<Config, "mode">, operator: Operator): string | null {
  if (config.mode === "production" || operator.twoFactorEnabled) return null;
  return "Two-factor authentication is off for this account. In production the console opens only with two-factor authentication on.";
}

/** The console's frame (its menu): in local mode without two-factor, the banner. */
export const consoleFrame = defineOperation({
  access: operator,
  async run({ services, user }) {
    return { notice: twoFactorNotice(services.config, user) };
  },
});
