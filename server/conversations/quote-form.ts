/**
 * The Send a Quote form's fields as core/quotes.ts's schema reads them. Line items come as
 * `lineItems.{n}.description` and `lineItems.{n}.amount` (n from 0), in the order of n; a
 * program may send `lineItems` as JSON instead. Unknown fields are left out.
 */
import { quoteSchema } from "#core/quotes.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { AppServices } from "../context.ts";
import { readerTime } from "../reader-time.ts";

const FIELDS = ["type", "amount", "rate", "hours", "low", "high", "included", "startDate", "validUntil"] as const;
/** More rows than this are not read: the schema's own limit (20) refuses what is left. */
const ROWS_READ = 100;

export function quoteFormInput(form: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") input[field] = value;
  }
  const rows = new Map<number, Record<string, string>>();
  for (const [name, value] of form) {
    const match = /^lineItems\.(\d{1,3})\.(description|amount)$/.exec(name);
    if (!match || typeof value !== "string" || Number(match[1]) >= ROWS_READ) continue;
    const index = Number(match[1]);
    rows.set(index, { ...rows.get(index), [match[2]!]: value });
  }
  if (rows.size > 0) input.lineItems = [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  else input.lineItems = jsonRows(form.get("lineItems"));
  return input;
}

function jsonRows(value: FormDataEntryValue | null): unknown {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The quote form's schema knows today on the quoting digger's clock (Valid until's earliest day). */
export const quoteInput = ({ services, user }: { services: Pick<AppServices, "config">; user: Pick<SessionUser, "timeZone"> }) =>
  quoteSchema(readerTime(user.timeZone, services.config).today);
