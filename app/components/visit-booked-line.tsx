import { CalendarClock } from "#app/components/icons.tsx";

/** 'Visit booked: {day, window}' on a card (issue 50): the text as the server wrote it, in the reader's zone. */
export function VisitBookedLine({ text }: { text: string }) {
  return (
    <p className="flex items-start gap-2 text-sm font-medium [overflow-wrap:anywhere]" data-testid="visit-booked">
      <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-strong" />
      {text}
    </p>
  );
}
