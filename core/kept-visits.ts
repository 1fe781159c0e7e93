/**
 * Kept and missed visits as trust signals (issue 50, docs/decisions/0076-site-visits.md): the
 * figure the digger's profile, their Browse Talent card and the client's record show. Apart from
 * core/visits.ts (which core/visits.ts re-exports) so that the pages every visitor loads (the
 * client's record is in core/reply-guarantee.ts) carry no form schema, hence no zod.
 */

/** 'Kept {k} of {n} visits' shows from this many counted visits. */
const KEPT_VISITS_MIN = 3;

/** The figure's term beside it on the digger's profile. */
export const KEPT_VISITS_TERM = "Site visits";

/** 'Kept {k} of {n} visits' once n >= KEPT_VISITS_MIN, else null (a figure of two says nothing). */
export function keptVisitsLine(record: { kept: number; counted: number } | null | undefined): string | null {
  if (!record || record.counted < KEPT_VISITS_MIN) return null;
  return `Kept ${record.kept} of ${record.counted} visit${record.counted === 1 ? "" : "s"}`;
}
