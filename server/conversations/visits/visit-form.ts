/**
 * The Propose a visit form's fields as core/visits.ts's `visitProposalSchema` reads them: options
 * as `options.{n}.date`, `options.{n}.time` and `options.{n}.window` (n from 0, in the order of n;
 * rows left wholly blank are dropped, as a browser sends the rows it shows), and `note`. Unknown
 * fields are left out; the schema's own limit (3) refuses rows beyond it.
 */
import { visitProposalSchema } from "#core/visits.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { AppServices } from "../../context.ts";
import { readerTime } from "../../reader-time.ts";

/** More rows than this are not read. */
const ROWS_READ = 10;

export function visitFormInput(form: FormData): Record<string, unknown> {
  const rows = new Map<number, Record<string, string>>();
  for (const [name, value] of form) {
    const match = /^options\.(\d{1,2})\.(date|time|window)$/.exec(name);
    if (!match || typeof value !== "string" || Number(match[1]) >= ROWS_READ) continue;
    const index = Number(match[1]);
    rows.set(index, { ...rows.get(index), [match[2]!]: value });
  }
  const options = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row)
    .filter((row) => (row.date ?? "").trim() !== "" || (row.time ?? "").trim() !== "");
  const note = form.get("note");
  return { options, note: typeof note === "string" ? note : undefined };
}

/** The digger's zone, which the form's times are in. */
export const diggerZone = ({ services, user }: { services: Pick<AppServices, "config">; user: Pick<SessionUser, "timeZone"> }) => readerTime(user.timeZone, services.config).zone;

/** The form's schema: times in the proposing digger's zone, from 2 hours to 60 days after now. */
export const visitProposalInput = (context: { services: Pick<AppServices, "config">; user: Pick<SessionUser, "timeZone"> }) => visitProposalSchema(diggerZone(context), new Date());
