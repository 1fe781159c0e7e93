/**
 * The profile editing page's "Proof for Insured, Bonded or Licensed" card (named without the
 * word "credential", which labels its first field): upload proof of Insured, Bonded or
 * Licensed (a PDF, JPEG or PNG, up to 10 MB) with the policy or licence number and expiry date,
 * and see what became of each proof. Its own form, posted to /digger-registration?proof: the
 * profile form around it is untouched. Without JavaScript it posts and comes back the same.
 */
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";
import {
  CREDENTIAL_KINDS,
  CREDENTIAL_NUMBER_MAX,
  CREDENTIALS,
  credentialDocumentUrl,
  DOCUMENT_ACCEPT,
  type OwnCredentialDocument,
} from "#core/credentials.ts";
import { SectionCard } from "./section-card.tsx";

type Result = { error?: string; success?: string; fieldErrors?: Record<string, string> };

const STATUS_BADGE = {
  pending: { label: "Pending", variant: "outline" },
  approved: { label: "Verified", variant: "default" },
  rejected: { label: "Rejected", variant: "destructive" },
  lapsed: { label: "Lapsed", variant: "outline" },
  replaced: { label: "Replaced", variant: "outline" },
} as const;

/** A proof with its texts as the server wrote them, in the digger's zone (issue 47). */
type ShownProof = OwnCredentialDocument & { statusText: string; detailText: string };

export function CredentialProofs({ proofs, result }: { proofs: ShownProof[]; result?: Result }) {
  const fetcher = useFetcher<Result>();
  const data = fetcher.data ?? result;
  useFieldFocus(fetcher.data);
  const errors = inlineErrors(data);
  const busy = fetcher.state !== "idle";
  const form = useRef<HTMLFormElement>(null);
  // A proof sent: the form is ready for the next one.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.success) form.current?.reset();
  }, [fetcher.state, fetcher.data]);

  return (
    <section id="credentials" className="mt-6 scroll-mt-20" aria-label="Proof for Insured, Bonded or Licensed">
      <SectionCard
        title="Proof for Insured, Bonded or Licensed"
        description="Upload proof of insurance, a bond or a licence. An operator checks it; your profile then shows the credential as verified until the date approved. The document stays private: only you and Digs & Gigs operators can open it."
      >
        <fetcher.Form ref={form} method="post" action="/digger-registration?proof" encType="multipart/form-data" noValidate className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField id="credential" label="Credential" required error={errors.credential}>
              <NativeSelect {...fieldControlProps("credential", { error: errors.credential, required: true })} name="credential" defaultValue="">
                <option value="" disabled>
                  Choose...
                </option>
                {CREDENTIAL_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {CREDENTIALS[kind]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField id="credentialNumber" label="Policy or licence number" required error={errors.credentialNumber}>
              <Input {...fieldControlProps("credentialNumber", { error: errors.credentialNumber, required: true })} name="credentialNumber" maxLength={CREDENTIAL_NUMBER_MAX} autoComplete="off" />
            </FormField>
            <FormField id="credentialExpiry" label="Expiry date" required error={errors.credentialExpiry}>
              <Input {...fieldControlProps("credentialExpiry", { error: errors.credentialExpiry, required: true })} name="credentialExpiry" type="date" />
            </FormField>
          </div>
          <FormField id="credentialDocument" label="Document" required error={errors.credentialDocument} hint="The policy or licence: PDF, JPEG or PNG, up to 10 MB.">
            <Input {...fieldControlProps("credentialDocument", { error: errors.credentialDocument, required: true, hintId: "credentialDocument-hint" })} name="credentialDocument" type="file" accept={DOCUMENT_ACCEPT} />
          </FormField>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Uploading..." : "Upload Proof"}
            </Button>
          </div>
        </fetcher.Form>

        {proofs.length > 0 ? (
          <ul aria-label="Your proofs" className="divide-y rounded-md border">
            {proofs.map((proof) => (
              <li key={proof.id} className="grid gap-1 p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{CREDENTIALS[proof.credential]}</span>
                  <Badge variant={STATUS_BADGE[proof.status].variant}>{STATUS_BADGE[proof.status].label}</Badge>
                </div>
                <p className="[overflow-wrap:anywhere]">{proof.statusText}</p>
                <p className="text-muted-foreground [overflow-wrap:anywhere]">
                  {proof.detailText}
                  <a href={credentialDocumentUrl(proof.id)} className="underline" target="_blank" rel="noreferrer">
                    {`Open ${proof.documentName}`}
                  </a>
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No proof uploaded yet: your credentials show as self-reported.</p>
        )}
      </SectionCard>
    </section>
  );
}
