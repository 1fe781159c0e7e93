/**
 * Dates as the app shows them, in UTC so that the server's page and the browser's agree:
 * "Nov 23, 2026", and with the time where the hour matters (a deadline):
 * "Nov 26, 2026, 5:32 PM UTC".
 */
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function formatDate(date: string | Date): string {
  return dateFormat.format(new Date(date));
}

export function formatDateTime(date: string | Date): string {
  return `${dateTimeFormat.format(new Date(date))} UTC`;
}
