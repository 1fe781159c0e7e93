/** The edit form's values as stored ones show in it: amounts in dollars, and its least deadline. */

export const dollars = (cents: number | null) => (cents === null ? "" : String(cents / 100));

/** Today (the reader's day, issue 47), or the gig's own earlier deadline: leaving an old deadline as it is must not block the rest. */
export function earliestDeadline(deadline: string | null, today: string): string {
  return deadline !== null && deadline < today ? deadline : today;
}
