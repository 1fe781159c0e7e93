import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { ProofQueue } from "#app/features/ops/proof-queue.tsx";
import { RowAction } from "#app/features/ops/row-action.tsx";
import { decideCredential } from "#server/ops/credential-review.ts";
import { setVerifiedBadge } from "#server/ops/set-verified-badge.ts";
import { verificationPage } from "#server/ops/view-verification.ts";
import { serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.verification";

/** Verification: credential proofs waiting for review, and the profiles' Verified badge (identity checked). */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, verificationPage);
}

/** Approve or Reject a proof; grant or remove the Verified badge. */
export async function action(args: Route.ActionArgs) {
  return serveIntents(args, {
    "approve-credential": decideCredential,
    "reject-credential": decideCredential,
    grant: setVerifiedBadge,
    remove: setVerifiedBadge,
  });
}

export default function OpsVerification({ loaderData }: Route.ComponentProps) {
  const { q, proofs, page } = loaderData;
  return (
    <div>
      <PageHeader title="Verification queue" subtitle="Proofs of insurance, bonds and licences waiting for review, the longest-waiting first; then the Verified badge, which says an operator checked the digger's identity." />
      <ProofQueue proofs={proofs} />
      <h2 className="mt-10 mb-4 text-xl font-semibold">Verified badge</h2>
      <Form method="get" className="mb-6 flex flex-wrap items-end gap-3" role="search" aria-label="Search diggers">
        <div className="grid min-w-0 flex-1 basis-56 gap-1">
          <Label htmlFor="verification-q">Handle, name or e-mail</Label>
          <Input id="verification-q" name="q" type="search" defaultValue={q} maxLength={100} />
        </div>
        <Button type="submit">Search</Button>
      </Form>
      {page.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{q ? "No digger matches." : "No digger profiles yet."}</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Digger profiles">
          {page.items.map((profile) => (
            <li key={profile.id} className="grid gap-3 p-3 text-sm md:grid-cols-[1fr_18rem]">
              <div className="grid min-w-0 content-start gap-1">
                <Link to={`/digger/${profile.id}`} className="font-semibold underline">
                  @{profile.handle}
                </Link>
                <p className="break-all text-muted-foreground">
                  <Link to={`/ops/users/${profile.userId}`} className="underline">
                    {profile.email}
                  </Link>
                </p>
                <div className="flex flex-wrap gap-2">
                  {profile.verified ? <Badge>Verified</Badge> : <Badge variant="outline">Not verified</Badge>}
                  {profile.hidden ? <Badge variant="destructive">Hidden</Badge> : null}
                </div>
              </div>
              {profile.verified ? (
                <RowAction label="Remove Verified badge" fields={{ intent: "remove", diggerId: profile.id }} reason={{ label: "Note", hint: "Why the badge goes: kept in the audit trail." }} />
              ) : (
                <RowAction label="Grant Verified badge" variant="default" fields={{ intent: "grant", diggerId: profile.id }} reason={{ label: "Note", hint: "How the identity was checked: kept in the audit trail." }} />
              )}
            </li>
          ))}
        </ul>
      )}
      <NextPageLink nextCursor={page.nextCursor} label="More diggers" />
    </div>
  );
}
