import { formatCount } from "./money.ts";

/** Results a list counts before it says "1,000+": counting every match would grow with the table. */
export const COUNT_CAP = 1000;

/** "24 gigs match", "1 gig matches", "1,000+ gigs match" (a count above the cap). */
export function resultCountText(count: number, [one, many]: [one: string, many: string]): string {
  if (count > COUNT_CAP) return `${formatCount(COUNT_CAP)}+ ${many} match`;
  return count === 1 ? `1 ${one} matches` : `${formatCount(count)} ${many} match`;
}
