import type { ReactNode } from "react";
import { Link } from "#app/components/link.tsx";
import { credentialDocumentUrl } from "#core/credentials.ts";
import { auditDetailsText, OPERATOR_ACTIONS, type AuditEntry } from "#core/operator-actions.ts";

/**
 * The record an audit row is about, as a link that says what it opens: a gig by its title, a
 * proof as its document; other records (a review, a refund, a profile) by type and short id.
 */
function subjectRecord(entry: AuditEntry): ReactNode {
  const short = entry.subjectId.slice(0, 8);
  if (entry.subjectType === "gig") {
    return (
      <>
        {"gig "}
        <Link to={`/gig/${entry.subjectId}`} className="underline">
          {entry.gigTitle ?? short}
        </Link>
      </>
    );
  }
  if (entry.subjectType === "credential") {
    // The proof's document (a file, not a page of the app).
    return (
      <a href={credentialDocumentUrl(entry.subjectId)} target="_blank" rel="noreferrer" className="underline">
        {`proof document ${short}`}
      </a>
    );
  }
  // A user is the "about" link already.
  if (entry.subjectType === "user" && entry.subjectUser) return null;
  return <span className="text-muted-foreground">{`${entry.subjectType} ${short}`}</span>;
}

/** Audit rows, newest first: when, who, what, on which record, and why. */
export function AuditList({ entries, empty = "No operator actions match." }: { entries: Array<AuditEntry & { createdAtText: string }>; empty?: string }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    // Named without "action": the Action filter's label must find only the filter.
    <ol className="divide-y rounded-md border" aria-label="Audit log entries">
      {entries.map((entry) => {
        const details = auditDetailsText(entry.details);
        const record = subjectRecord(entry);
        return (
          <li key={entry.id} className="grid gap-1 p-3 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold">{OPERATOR_ACTIONS[entry.action]}</span>
              <time dateTime={entry.createdAt} className="text-xs text-muted-foreground">
                {entry.createdAtText}
              </time>
            </div>
            <p className="[overflow-wrap:anywhere]">
              By {entry.operator ?? "a former operator"}
              {entry.subjectUser && entry.subjectUserId ? (
                <>
                  {" · about "}
                  <Link to={`/ops/users/${entry.subjectUserId}`} className="underline">
                    {entry.subjectUser}
                  </Link>
                </>
              ) : null}
              {record ? (
                <>
                  {" · "}
                  {record}
                </>
              ) : null}
            </p>
            {entry.reason ? <p className="[overflow-wrap:anywhere]">Reason: {entry.reason}</p> : null}
            {details ? <p className="text-muted-foreground">{details}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
