/**
 * A purchase's thread evidence in words for one reader (issue 48): the texts of
 * core/reply-guarantee.ts with the opening's date in the reader's zone. The rows come from a
 * list's own query joined to `threads` (left join: `evidenceColumns`), so a list reads its
 * evidence in the same query, never one query per row.
 */
import { clientOpenedText, firstMessageText, messageCountsText, openedText, type EvidenceTexts } from "#core/reply-guarantee.ts";
import type { ReaderTime } from "../reader-time.ts";

/** The evidence columns as a left join to `threads` reads them (null without a thread). */
export interface EvidenceRow {
  purchasedAt: Date | null;
  diggerFirstAt: Date | null;
  clientOpenedAt: Date | null;
  diggerMessages: number | null;
  clientMessages: number | null;
}

/**
 * The texts of one purchase's evidence; null for a purchase without a thread (never paid) or
 * without a purchase time. `side` 'client': the client reads of their own opening.
 */
function evidenceTexts(row: EvidenceRow, time: ReaderTime, side: "client" | "other" = "other"): EvidenceTexts | null {
  if (row.purchasedAt === null || row.diggerMessages === null || row.clientMessages === null) return null;
  const opened = row.clientOpenedAt === null ? null : time.dateTime(row.clientOpenedAt);
  return {
    opened: side === "client" ? clientOpenedText(opened) : openedText(opened),
    messages: messageCountsText({ diggerMessages: row.diggerMessages, clientMessages: row.clientMessages }),
    firstMessage: firstMessageText({ purchasedAt: row.purchasedAt, diggerFirstAt: row.diggerFirstAt }),
  };
}

/** Takes the evidence columns out of a row: the rest of the row, and the evidence's texts. */
export function withEvidenceTexts<T extends EvidenceRow>(row: T, time: ReaderTime, side: "client" | "other" = "other") {
  const { purchasedAt, diggerFirstAt, clientOpenedAt, diggerMessages, clientMessages, ...rest } = row;
  return { ...rest, evidence: evidenceTexts({ purchasedAt, diggerFirstAt, clientOpenedAt, diggerMessages, clientMessages }, time, side) };
}
