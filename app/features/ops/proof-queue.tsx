/**
 * The verification queue's proofs (issue 22): each with its digger, number, stated expiry and
 * document (an image is shown, a PDF is downloaded), and two decisions: Approve until a date
 * (the stated expiry by default), or Reject with a reason the digger sees.
 */
import { useId } from "react";
import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import { CREDENTIALS, credentialDocumentUrl, type PendingProof } from "#core/credentials.ts";
import { RowAction } from "./row-action.tsx";

export function ProofQueue({ proofs }: { proofs: { items: Array<PendingProof & { detailText: string }>; nextCursor: string | null } }) {
  return (
    <section aria-labelledby="proofs-title">
      <h2 id="proofs-title" className="mb-4 text-xl font-semibold">
        Credential proofs
      </h2>
      {proofs.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No proof is waiting for review.</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Proofs waiting for review">
          {proofs.items.map((proof) => (
            <li key={proof.id} className="grid gap-3 p-3 text-sm md:grid-cols-[1fr_18rem]">
              <div className="grid min-w-0 content-start gap-1">
                <p className="font-semibold">{`${CREDENTIALS[proof.credential]}: No. ${proof.number}`}</p>
                <p>
                  <Link to={`/digger/${proof.diggerId}`} className="underline">
                    @{proof.handle}
                  </Link>{" "}
                  <span className="break-all text-muted-foreground">
                    (
                    <Link to={`/ops/users/${proof.userId}`} className="underline">
                      {proof.email}
                    </Link>
                    )
                  </span>
                </p>
                <p className="text-muted-foreground">{proof.detailText}</p>
                <a href={credentialDocumentUrl(proof.id)} target="_blank" rel="noreferrer" className="underline">
                  {`${proof.isImage ? "Open" : "Download"} ${proof.documentName}`}
                </a>
                {proof.isImage ? (
                  <img src={credentialDocumentUrl(proof.id)} alt={`${CREDENTIALS[proof.credential]} proof of @${proof.handle}`} className="max-h-64 w-fit max-w-full rounded-md border object-contain" />
                ) : null}
              </div>
              <div className="grid content-start gap-4">
                <ApproveForm proof={proof} />
                <RowAction label="Reject" variant="destructive" fields={{ intent: "reject-credential", documentId: proof.id }} reason={{ hint: "The digger sees this reason: say what to send instead." }} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <NextPageLink nextCursor={proofs.nextCursor} label="More proofs" param="proofs" />
    </section>
  );
}

function ApproveForm({ proof }: { proof: PendingProof }) {
  const fetcher = useFetcher<{ error?: string; success?: string; fieldErrors?: Record<string, string> }>();
  useFieldFocus(fetcher.data);
  const id = useId();
  const error = fetcher.data?.fieldErrors?.verifiedUntil;
  return (
    <fetcher.Form method="post" noValidate className="grid gap-2">
      <input type="hidden" name="intent" value="approve-credential" />
      <input type="hidden" name="documentId" value={proof.id} />
      <FormField id={`${id}-until`} label="Verified until" required error={error} hint="The policy's or licence's expiry, as the document shows it.">
        <Input {...fieldControlProps(`${id}-until`, { error, required: true, hintId: `${id}-until-hint` })} name="verifiedUntil" type="date" defaultValue={proof.statedExpiry} />
      </FormField>
      <div>
        <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
          Approve
        </Button>
      </div>
    </fetcher.Form>
  );
}
