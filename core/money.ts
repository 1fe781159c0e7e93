/**
 * Numbers as the app writes them (en-US): counts ("1,234"), prices in whole dollars or dollars
 * and cents, and the spec's budget display rule (section 5).
 *
 * Written out rather than through `Intl` or `toLocaleString`, because a browser's first use of
 * `Intl` loads its locale data: as a rule 20-30 ms of a page's start on this project's test
 * machine (docs/decisions/0061-en-us-formats-without-intl.md); tests/unit/en-us-formats.test.ts holds
 * every function of this kind to `Intl`'s output. Counts live here with money, in one module,
 * so that the pages that show both load one file for them.
 */

/** An integer with commas between groups of three digits: 1234567 -> "1,234,567", -1234 -> "-1,234". */
export function formatCount(count: number): string {
  const value = Math.round(count);
  const digits = String(Math.abs(value));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${grouped}` : grouped;
}

/** Integer cents as "$1,234.56" (or "-$1,234.56"); "$1,234" without `withCents`. */
function dollars(cents: number, withCents: boolean): string {
  const sign = cents < 0 ? "-" : "";
  const amount = Math.abs(cents);
  const text = `${sign}$${formatCount(Math.floor(amount / 100))}`;
  return withCents ? `${text}.${String(amount % 100).padStart(2, "0")}` : text;
}

/** Integer cents as money: "$1,234" when there are no cents, otherwise "$1,234.56". */
export function formatMoney(cents: number): string {
  return dollars(cents, cents % 100 !== 0);
}

/** Integer cents always with two decimals, as prices are shown: "$50.00". */
export function formatPrice(cents: number): string {
  return dollars(cents, true);
}

/**
 * 'Budget not specified' (neither bound), '$min - $max' (both), 'From $min' (minimum only),
 * 'Up to $max' (maximum only). A bound of 0 is a bound; only null or undefined is "not set".
 */
export function budgetText(minCents: number | null | undefined, maxCents: number | null | undefined): string {
  const hasMin = minCents !== null && minCents !== undefined;
  const hasMax = maxCents !== null && maxCents !== undefined;
  if (hasMin && hasMax) return `${formatMoney(minCents)} - ${formatMoney(maxCents)}`;
  if (hasMin) return `From ${formatMoney(minCents)}`;
  if (hasMax) return `Up to ${formatMoney(maxCents)}`;
  return "Budget not specified";
}
