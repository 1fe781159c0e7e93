import { Link } from "react-router";
import { credentialDocumentUrl } from "#core/credentials.ts";
import { formatDateTime } from "#core/dates.ts";
import { OPERATOR_ACTIONS, type AuditEntry } from "#core/operator-actions.ts";

/** Where an audit row's record is looked at in the console. */
function subjectLink(entry: AuditEntry): string | null {
  if (entry.subjectType === "gig") return `/gig/${entry.subjectId}`;
  return entry.subjectUserId ? `/ops/users/${entry.subjectUserId}` : null;
}

/** Audit rows, newest first: when, who, what, on which record, and why. */
export function AuditList({ entries, empty = "No operator actions match." }: { entries: AuditEntry[]; empty?: string }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ol className="divide-y rounded-md border" aria-label="Operator actions">
      {entries.map((entry) => {
        const link = subjectLink(entry);
        const record = `${entry.subjectType} ${entry.subjectId.slice(0, 8)}`;
        const details = Object.entries(entry.details);
        return (
          <li key={entry.id} className="grid gap-1 p-3 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold">{OPERATOR_ACTIONS[entry.action]}</span>
              <time dateTime={entry.createdAt} className="text-xs text-muted-foreground">
                {formatDateTime(entry.createdAt)}
              </time>
            </div>
            <p>
              By {entry.operator ?? "a former operator"}
              {entry.subjectUser ? (
                <>
                  {" · about "}
                  {link ? <Link to={link} className="underline">{entry.subjectUser}</Link> : entry.subjectUser}
                </>
              ) : null}
              {" · "}
              {entry.subjectType === "credential" ? (
                // The proof's document (a file, not a page of the app).
                <a href={credentialDocumentUrl(entry.subjectId)} target="_blank" rel="noreferrer" className="underline">
                  {record}
                </a>
              ) : link && !entry.subjectUser ? (
                <Link to={link} className="underline">
                  {record}
                </Link>
              ) : (
                <span className="text-muted-foreground">{record}</span>
              )}
            </p>
            {entry.reason ? <p>Reason: {entry.reason}</p> : null}
            {details.length > 0 ? (
              <p className="text-muted-foreground">{details.map(([key, value]) => `${key}: ${value}`).join(" · ")}</p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
