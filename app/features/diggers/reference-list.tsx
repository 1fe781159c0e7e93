import { BadgeCheck, Lock, Mail, Phone } from "#app/components/icons.tsx";
import { Form, useNavigation } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { PublicReference } from "#core/digger-types.ts";

/** The client references: contact hidden until the digger approved the viewer's request. */
export function ReferenceList({ references, canRequest }: { references: PublicReference[]; canRequest: boolean }) {
  const navigation = useNavigation();
  const pendingId = navigation.state === "submitting" ? navigation.formData?.get("referenceId") : null;
  if (references.length === 0) return <p className="text-muted-foreground">No references listed yet.</p>;
  return (
    <ul className="grid gap-4">
      {references.map((ref) => (
        <li key={ref.id} className="grid gap-2 rounded-md border p-4">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-medium">{ref.name}</h3>
            {ref.isVerified ? (
              <Badge variant="secondary">
                <BadgeCheck aria-hidden="true" />
                Verified reference
              </Badge>
            ) : null}
          </div>
          {ref.projectDescription ? <p className="text-sm text-muted-foreground">{ref.projectDescription}</p> : null}
          {ref.status === "approved" ? (
            <ul aria-label={`Contact for ${ref.name}`} className="grid gap-1 text-sm">
              {ref.email ? (
                <li className="flex items-center gap-1.5">
                  <Mail aria-hidden="true" className="size-4" />
                  <a href={`mailto:${ref.email}`} className="text-primary-strong underline underline-offset-4">
                    {ref.email}
                  </a>
                </li>
              ) : null}
              {ref.phone ? (
                <li className="flex items-center gap-1.5">
                  <Phone aria-hidden="true" className="size-4" />
                  {ref.phone}
                </li>
              ) : null}
            </ul>
          ) : (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span className="flex items-center gap-1.5 text-muted-foreground">
                <Lock aria-hidden="true" className="size-4" />
                Contact hidden
              </span>
              {ref.status === "pending" ? <Badge variant="secondary">Request Pending</Badge> : null}
              {ref.status === "rejected" ? <Badge variant="outline">Request Declined</Badge> : null}
              {ref.status === "none" && canRequest ? (
                <Form method="post">
                  <input type="hidden" name="referenceId" value={ref.id} />
                  <Button type="submit" size="sm" variant="outline" disabled={pendingId === ref.id}>
                    {pendingId === ref.id ? "Sending..." : "Request Contact"}
                    <span className="sr-only"> for {ref.name}</span>
                  </Button>
                </Form>
              ) : null}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
