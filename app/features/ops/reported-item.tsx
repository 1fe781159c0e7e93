import { RowAction } from "./row-action.tsx";

/**
 * The end of a reported item's row in the console (a message, a review): how often and since
 * when it was reported, every reason, and the two decisions, Hide and Keep, which both close
 * its reports. `subject` names the item for the action ({ messageId } or { reviewId }).
 */
export function ReportsAndDecision({ reasons, firstReportedText, subject }: { reasons: string[]; firstReportedText: string; subject: Record<string, string> }) {
  return (
    <>
      <div className="rounded-md bg-muted p-2">
        <p className="font-medium">{`Reported ${reasons.length} ${reasons.length === 1 ? "time" : "times"}, first ${firstReportedText}:`}</p>
        <ul className="list-disc pl-5">
          {reasons.map((reason, index) => (
            <li key={index} className="[overflow-wrap:anywhere]">
              {reason}
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap gap-2">
        <RowAction label="Hide" variant="destructive" fields={{ intent: "hide", ...subject }} />
        <RowAction label="Keep" fields={{ intent: "keep", ...subject }} />
      </div>
    </>
  );
}
