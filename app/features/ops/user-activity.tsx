import type { ReactNode } from "react";
import { Link } from "#app/components/link.tsx";
import { excerpt } from "#core/excerpt.ts";
import { ISSUE_STATUS_LABELS, ISSUE_TYPE_LABELS } from "#core/lead-issues.ts";
import { formatPrice } from "#core/money.ts";
import type { Capped, OpsReviewRow, OpsUserActivity } from "#core/ops-users.ts";
import { EvidenceList } from "./evidence-list.tsx";

/** One titled list of the user's page: its rows, "None." when empty, and a note when capped. */
function ActivityList<T extends { id: string }>({ title, list, row }: { title: string; list: Capped<T>; row: (item: T) => ReactNode }) {
  const id = `activity-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {list.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">None.</p>
      ) : (
        <ul className="divide-y rounded-md border text-sm" aria-labelledby={id}>
          {list.items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3">
              {row(item)}
            </li>
          ))}
        </ul>
      )}
      {list.more ? <p className="mt-1 text-xs text-muted-foreground">Only the newest {list.items.length} are shown.</p> : null}
    </section>
  );
}

const gigLink = (gigId: string, title: string) => (
  <Link to={`/gig/${gigId}`} className="min-w-0 break-words underline">
    {title}
  </Link>
);
const when = (createdAtText: string) => <span className="text-xs text-muted-foreground">{createdAtText}</span>;
/** A review's line: "4/5 for @handle on {gig}" or "4/5 from {client} on {gig}". */
const reviewRow = (who: (other: string) => string) => (review: OpsReviewRow) => (
  <>
    <span className="min-w-0">
      {review.rating}/5 {who(review.other)} on {gigLink(review.gigId, review.gigTitle)}
      {review.note ? <span className="text-muted-foreground">{` (${review.note})`}</span> : null}
      <span className="block text-muted-foreground">{excerpt(review.body, 140)}</span>
    </span>
    {when(review.createdAtText)}
  </>
);

/** What the user did: gigs, purchases, lead issues, reviews given and received (both ways). */
export function UserActivity({ user }: { user: OpsUserActivity }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ActivityList
        title="Gigs"
        list={user.gigs}
        row={(gig) => (
          <>
            {gigLink(gig.id, gig.title)}
            <span className="text-xs text-muted-foreground">
              {[gig.status === "open" ? "Open" : "Closed", gig.published ? null : "unpublished", gig.hidden ? "hidden by an operator" : null, `${gig.purchaseCount}/${gig.maxDiggers} bought`]
                .filter(Boolean)
                .join(" · ")}{" "}
              · {gig.createdAtText}
            </span>
          </>
        )}
      />
      <ActivityList
        title="Purchases"
        list={user.purchases}
        row={(purchase) => (
          <>
            {gigLink(purchase.gigId, purchase.gigTitle)}
            <span className="text-xs text-muted-foreground">
              {formatPrice(purchase.amountPaidCents)} · {purchase.status} · {purchase.createdAtText}
            </span>
          </>
        )}
      />
      <ActivityList
        title="Lead issues"
        list={user.issues}
        row={(issue) => (
          <>
            <span className="min-w-0">
              {issue.reportedByThem ? "Reported on " : "On their gig "}
              {gigLink(issue.gigId, issue.gigTitle)}: {ISSUE_TYPE_LABELS[issue.issueType]}
            </span>
            <span className="text-xs text-muted-foreground">
              {ISSUE_STATUS_LABELS[issue.status]} · {issue.createdAtText}
            </span>
            {issue.evidence ? (
              <div className="w-full text-xs">
                <EvidenceList evidence={issue.evidence} />
              </div>
            ) : null}
          </>
        )}
      />
      <ActivityList title="Reviews given" list={user.reviewsGiven} row={reviewRow((handle) => `for @${handle}`)} />
      <ActivityList title="Reviews received" list={user.reviewsReceived} row={reviewRow((client) => `from ${client}`)} />
      {/* Issue 51: the digger's reviews of clients, and the client's reviews from diggers. */}
      <ActivityList title="Reviews of clients given" list={user.clientReviewsGiven} row={reviewRow((client) => `for ${client}`)} />
      <ActivityList title="Reviews from diggers received" list={user.clientReviewsReceived} row={reviewRow((handle) => `from @${handle}`)} />
    </div>
  );
}
