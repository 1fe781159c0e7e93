import { fact } from "#app/components/fact-list.tsx";
import { FileText, Mail, MessageCircle, MessageSquareText, Phone } from "#app/components/icons.tsx";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { ClientContactDetails } from "#core/client-contact.ts";
import type { PhoneStatus as Status } from "#core/phone-verification.ts";
import { PhoneStatus } from "#app/components/phone-status.tsx";

/** The Send Email link: the client's address, with a subject naming the gig. */
function mailtoHref(email: string, gigTitle: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(`Regarding your gig: ${gigTitle}`)}`;
}

/** The phone's digits and a leading +, nothing a dialler or a messages app would trip on. */
const dialable = (phone: string) => phone.replace(/[^0-9+]/g, "");

/** A tel: link. */
function telHref(phone: string): string {
  return `tel:${dialable(phone)}`;
}

/** An sms: link, with the same digits as the tel: link. */
function smsHref(phone: string): string {
  return `sms:${dialable(phone)}`;
}

/** Call and Text, beside each other: the same digits, a tel: and an sms: link. */
const PHONE_ACTIONS = [
  { label: "Call", href: telHref, Icon: Phone },
  { label: "Text", href: smsHref, Icon: MessageSquareText },
] as const;

/** The buyer's conversation with the client (the gig's page, issue 47): Message {first name}, and Send a Quote when they may. */
export interface BuyerThread {
  threadId: string | null;
  canQuote: boolean;
}

/**
 * The client's contact details as a buyer of their lead sees them, on My Leads and on the gig's
 * own page after the purchase: name, e-mail, phone, contact preferences, Send Email, Call and
 * Text. With the buyer's thread (the gig's page), 'Message {first name}' is the main action, and
 * 'Send a Quote' opens the thread's quote form unless the digger may not quote. Beside the
 * number, whether the client verified it (`phoneStatus`, issue 49).
 */
export function ClientContact({
  client,
  gigTitle,
  thread,
  phoneStatus = null,
}: {
  client: ClientContactDetails;
  gigTitle: string;
  thread?: BuyerThread;
  phoneStatus?: Status | null;
}) {
  const threadId = client.deleted ? null : (thread?.threadId ?? null);
  const firstName = client.name.trim().split(/\s+/)[0] ?? client.name;
  return (
    <section aria-label="Client Information" className="grid gap-3 rounded-lg border bg-muted/40 p-4">
      <h3 className="font-semibold">Client Information</h3>
      {client.deleted ? <p className="text-sm">This client has deleted their account.</p> : null}
      <dl className="facts grid gap-3 text-sm sm:grid-cols-2">
        {fact("Name", client.name)}
        {fact("Email", client.email)}
        {client.phone ? (
          fact(
            "Phone",
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <a href={telHref(client.phone)} className="underline">
                {client.phone}
              </a>
              <PhoneStatus status={phoneStatus} className="font-normal" />
            </span>,
          )
        ) : null}
        {client.contactPreferences ? fact("Contact Preferences", client.contactPreferences) : null}
      </dl>
      {client.deleted ? null : (
        <div className="flex flex-wrap gap-3">
          {threadId ? (
            <Button asChild>
              <Link to={`/messages/${threadId}`}>
                <MessageCircle aria-hidden className="size-4" />
                {`Message ${firstName}`}
              </Link>
            </Button>
          ) : null}
          {threadId && thread?.canQuote ? (
            <Button asChild variant="outline">
              <Link to={`/messages/${threadId}?compose=quote`}>
                <FileText aria-hidden className="size-4" />
                Send a Quote
              </Link>
            </Button>
          ) : null}
          <Button asChild variant={threadId ? "outline" : "default"}>
            <a href={mailtoHref(client.email, gigTitle)}>
              <Mail aria-hidden className="size-4" />
              Send Email
            </a>
          </Button>
          {client.phone
            ? PHONE_ACTIONS.map(({ label, href, Icon }) => (
                <Button key={label} asChild variant="outline">
                  <a href={href(client.phone!)}>
                    <Icon aria-hidden className="size-4" />
                    {label}
                  </a>
                </Button>
              ))
            : null}
        </div>
      )}
    </section>
  );
}
