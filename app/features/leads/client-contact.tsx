import { Mail, Phone } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import type { ClientContactDetails } from "#core/client-contact.ts";

/** The Send Email link: the client's address, with a subject naming the gig. */
export function mailtoHref(email: string, gigTitle: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(`Regarding your gig: ${gigTitle}`)}`;
}

/** A tel: link: the digits and a leading +, nothing a dialler would trip on. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^0-9+]/g, "")}`;
}

/**
 * The client's contact details as a buyer of their lead sees them, on My Leads and on the gig's
 * own page after the purchase: name, e-mail, phone, contact preferences, Send Email and Call.
 */
export function ClientContact({ client, gigTitle }: { client: ClientContactDetails; gigTitle: string }) {
  return (
    <section aria-label="Client Information" className="grid gap-3 rounded-lg border bg-muted/40 p-4">
      <h3 className="font-semibold">Client Information</h3>
      {client.deleted ? <p className="text-sm">This client has deleted their account.</p> : null}
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <ContactItem label="Name" value={client.name} />
        <ContactItem label="Email" value={client.email} />
        {client.phone ? (
          <ContactItem
            label="Phone"
            value={
              <a href={telHref(client.phone)} className="underline">
                {client.phone}
              </a>
            }
          />
        ) : null}
        {client.contactPreferences ? <ContactItem label="Contact Preferences" value={client.contactPreferences} /> : null}
      </dl>
      {client.deleted ? null : (
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <a href={mailtoHref(client.email, gigTitle)}>
              <Mail aria-hidden className="size-4" />
              Send Email
            </a>
          </Button>
          {client.phone ? (
            <Button asChild variant="outline">
              <a href={telHref(client.phone)}>
                <Phone aria-hidden className="size-4" />
                Call
              </a>
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}

function ContactItem({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{value}</dd>
    </div>
  );
}
