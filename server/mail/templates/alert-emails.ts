/**
 * Lead alerts: the instant alert of one gig and the daily digest. A gig's title and location
 * are the client's words: they are text (a paragraph, a fact), never a link; the only links
 * are the template's own "View the gig" and the footer's.
 */
import { ALERT_FREQUENCY_LABELS } from "#core/lead-alerts.ts";
import { budgetText, formatPrice } from "#core/money.ts";
import { action, divider, facts, paragraph, type EmailMessage, type EmailPart } from "../content.ts";

export interface AlertEmailGig {
  id: string;
  title: string;
  categoryName: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  location: string;
  leadPriceCents: number;
  maxDiggers: number;
  spotsTaken: number;
}

/** What an alert says of a gig: its title, its facts and its link. */
function gigParts(publicUrl: string, gig: AlertEmailGig): EmailPart[] {
  return [
    paragraph(gig.title),
    facts(
      ["Category", gig.categoryName],
      ["Budget", budgetText(gig.budgetMinCents, gig.budgetMaxCents)],
      ["Location", gig.location],
      ["Lead price", formatPrice(gig.leadPriceCents)],
      ["Spots left", `${Math.max(0, gig.maxDiggers - gig.spotsTaken)} of ${gig.maxDiggers}`],
    ),
    action("View the gig", `${publicUrl}/gig/${gig.id}`),
  ];
}

/** Every alert e-mail's end: why it came, where to change it, and the signed one-click off switch. */
function footer(publicUrl: string, frequency: "instant" | "daily", unsubscribeUrl: string): EmailPart[] {
  return [
    divider(),
    paragraph(`You get this because your lead alerts are set to ${ALERT_FREQUENCY_LABELS[frequency]}.`),
    action("Change your alert preferences", `${publicUrl}/account`),
    action("Unsubscribe", unsubscribeUrl, "Turn lead alerts off with one click"),
  ];
}

export function leadAlertEmail({ publicUrl, gig, unsubscribeUrl }: { publicUrl: string; gig: AlertEmailGig; unsubscribeUrl: string }): EmailMessage {
  return {
    subject: `New lead: ${gig.title}`,
    content: [paragraph("A new gig matches your lead alerts."), ...gigParts(publicUrl, gig), ...footer(publicUrl, "instant", unsubscribeUrl)],
  };
}

/** `total` gigs matched; `gigs` are the ones shown, `moreUrl` Browse Gigs for the rest. */
export function digestEmail(p: { publicUrl: string; total: number; gigs: AlertEmailGig[]; moreUrl: string; unsubscribeUrl: string }): EmailMessage {
  const more = p.total - p.gigs.length;
  return {
    subject: `Your lead alerts: ${p.total === 1 ? "1 new gig" : `${p.total} new gigs`}`,
    content: [
      paragraph(`${p.total === 1 ? "1 new gig matches" : `${p.total} new gigs match`} your lead alerts today.`),
      ...p.gigs.flatMap((gig) => gigParts(p.publicUrl, gig)),
      ...(more > 0 ? [action(`And ${more} more`, p.moreUrl)] : []),
      ...footer(p.publicUrl, "daily", p.unsubscribeUrl),
    ],
  };
}
