/**
 * A visit's 'Add to Google Calendar' link (issue 50): Google Calendar's event template,
 * https://calendar.google.com/calendar/render?action=TEMPLATE&text=…&dates=START/END&details=…&location=…,
 * with both times in UTC (YYYYMMDDTHHMMSSZ), so the calendar shows them in its own zone. What a
 * user wrote (the gig's title and location) is only ever a parameter's value, encoded.
 */

/** 20270314T150000Z: an instant as iCalendar and Google Calendar write UTC. */
const utcStamp = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");

export function googleCalendarLink(event: { title: string; start: Date; end: Date; details: string; location: string }): string {
  const value = (text: string) => encodeURIComponent(text);
  return (
    "https://calendar.google.com/calendar/render?action=TEMPLATE" +
    `&text=${value(event.title)}` +
    `&dates=${utcStamp(event.start)}/${utcStamp(event.end)}` +
    `&details=${value(event.details)}` +
    `&location=${value(event.location)}`
  );
}
