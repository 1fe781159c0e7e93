/**
 * Whether the header From's domain lets this reply in (issue 45, decision 0048's amendment):
 * DMARC through `mailauth` (DKIM, SPF and their alignment with the header From). A domain that
 * publishes `p=reject` or `p=quarantine` and whose check fails is refused with 550: its owner
 * asked receivers not to believe such mail. A domain without a policy, or with `p=none`, is let
 * through (the header From must still be the recipient's address, listener.ts). Behind a
 * trusted relay, SPF is checked for the client the relay names in the `Received` header it
 * added on top (its address and HELO), not for the relay itself.
 */
import { authenticate, type DNSResolver } from "mailauth";

export type { DNSResolver };

/** The SMTP client as the listener saw it. */
export interface SmtpClient {
  /** The connecting address. */
  address: string;
  /** What it said in EHLO/HELO. */
  helo: string;
  /** MAIL FROM ('' for a bounce). */
  envelopeFrom: string;
  /** It is a trusted relay (INBOUND_TRUSTED_RELAYS): the sender is the one it names in its Received header. */
  relay: boolean;
}

/** Why the sender's domain refuses the reply (an SMTP reply), or null when it may be posted. */
export type SenderDomainVerdict = { code: 550 | 451; text: string } | null;

export async function senderDomainVerdict(
  raw: Buffer,
  client: SmtpClient,
  options: { mta: string; resolver?: DNSResolver | undefined },
): Promise<SenderDomainVerdict> {
  const result = await authenticate(raw, {
    // From a relay, mailauth takes the client's address and HELO from the topmost Received header.
    ...(client.relay ? { trustReceived: true } : { ip: client.address, helo: client.helo }),
    ...(client.envelopeFrom ? { sender: client.envelopeFrom } : {}),
    mta: options.mta,
    ...(options.resolver ? { resolver: options.resolver } : {}),
    disableArc: true,
    disableBimi: true,
  });
  // RFC 9989 11.5: more than one From field (or author domain) is not a reply to believe.
  if (result.dmarcSkipReason) return { code: 550, text: "5.7.1 One From address only, please" };
  if (!result.dmarc) return null;
  const outcome = result.dmarc.status.result;
  if (outcome === "temperror") return { code: 451, text: "4.7.0 The sender's domain could not be checked: try again later" };
  if (outcome === "fail" && (result.dmarc.policy === "reject" || result.dmarc.policy === "quarantine")) {
    return { code: 550, text: "5.7.1 The sender's domain does not vouch for this message (DMARC)" };
  }
  return null;
}
