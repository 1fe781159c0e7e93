/**
 * The reply guarantee on a digger's lead card (/my-leads, issue 48): where the purchase stands
 * (decided by the database, server/leads/my-leads.ts) in the words of core/reply-guarantee.ts,
 * and the thread's evidence on one line. Dates arrive as text in the digger's zone.
 */
import { coveredText, firstMessageText, GUARANTEE_TEXTS, messageCountsText, openedText } from "./reply-guarantee.ts";

/**
 * A purchase's guarantee as its card tells it: covered and waiting (the client has neither
 * opened nor answered the thread); still time to write (bought less than 24 hours ago, nothing
 * written); not covered (no first answer within 24 hours of buying); refunded by it; in the
 * operators' hands (past the digger's bound); refused by them. Null: nothing to say (answered,
 * skipped, or a purchase from before the guarantee).
 */
export type GuaranteeLine = "covered" | "write" | "not_covered" | "refunded" | "escalated" | "declined";

/** While the 24 hours run with nothing written: the deadline, in the digger's zone. */
export const writeToBeCoveredText = (deadline: string) => `Write to the client by ${deadline} to be covered by the reply guarantee`;

/** What the database says of a purchase's guarantee and thread (times as the database wrote them). */
export interface LeadGuaranteeFacts {
  line: GuaranteeLine | null;
  /** When a covered purchase is refunded if nobody opened its thread. */
  dueAt: string | null;
  /** GUARANTEE_WRITE_HOURS after the purchase. */
  writeBy: string;
  evidence: { purchasedAt: Date; diggerFirstAt: Date | null; clientOpenedAt: Date | null; diggerMessages: number; clientMessages: number } | null;
}

/** The card's two lines, written by the server in the digger's zone. */
export interface LeadGuaranteeTexts {
  line: string | null;
  /** 'Client has not opened your thread · Messages: 1 from the digger, 0 from the client · First message 2 hours after buying'. */
  evidence: string | null;
}

/** `time` formats a deadline and a date-time in the reader's zone (server/reader-time.ts). */
export function leadGuaranteeTexts(facts: LeadGuaranteeFacts, time: { deadline(value: Date | string): string; dateTime(value: Date | string): string }): LeadGuaranteeTexts {
  const line = (() => {
    switch (facts.line) {
      case "covered":
        return facts.dueAt ? coveredText(time.deadline(facts.dueAt)) : null;
      case "write":
        return writeToBeCoveredText(time.deadline(facts.writeBy));
      case "not_covered":
        return GUARANTEE_TEXTS.notCovered;
      case "refunded":
        return GUARANTEE_TEXTS.refunded;
      case "escalated":
        return GUARANTEE_TEXTS.escalated;
      case "declined":
        return GUARANTEE_TEXTS.declined;
      case null:
        return null;
    }
  })();
  const e = facts.evidence;
  const evidence = e
    ? [openedText(e.clientOpenedAt ? time.dateTime(e.clientOpenedAt) : null), messageCountsText(e), firstMessageText(e)].join(" · ")
    : null;
  return { line, evidence };
}
