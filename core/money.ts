/**
 * The spec's budget display rule (section 5) and money formatting for prices in whole
 * dollars or dollars and cents. Pure; a later change moves this to core/.
 */

const wholeDollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const dollarsAndCents = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Integer cents as money: "$1,234" when there are no cents, otherwise "$1,234.56". */
export function formatMoney(cents: number): string {
  return (Number.isInteger(cents / 100) ? wholeDollars : dollarsAndCents).format(cents / 100);
}

/** Integer cents always with two decimals, as prices are shown: "$50.00". */
export function formatPrice(cents: number): string {
  return dollarsAndCents.format(cents / 100);
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
