/** The digger's ledger at the top of /my-leads (issue 19): what was bought, paid and refunded. */
import { GUARANTEE_TEXTS } from "./reply-guarantee.ts";

export interface LedgerTotals {
  leadsBought: number;
  spentCents: number;
  refundedCents: number;
  /** Of those, the refunds of the reply guarantee (issue 48): how many, and how much. */
  guaranteeRefunds: number;
  guaranteeRefundedCents: number;
  netCents: number;
  /** Quotes sent (a revision is the same quote), accepted, and hires (issue 33). */
  quotesSent: number;
  quotesAccepted: number;
  hires: number;
  /** Net spent divided by hires, in cents; null without hires ('—'). */
  netPerHireCents: number | null;
}

export interface LeadLedger {
  last30Days: LedgerTotals;
  allTime: LedgerTotals;
}

export const LEDGER_DAYS = 30;

export const LEDGER_TEXTS = {
  title: "Your spending",
  last30Days: "Last 30 days",
  allTime: "All time",
  leadsBought: "Leads bought",
  totalSpent: "Total spent",
  totalRefunded: "Total refunded",
  guaranteeRefunded: GUARANTEE_TEXTS.spendingLabel,
  netSpent: "Net spent",
  quotesSent: "Quotes sent",
  quotesAccepted: "Quotes accepted",
  hires: "Hires",
  netPerHire: "Net spent per hire",
  none: "—",
} as const;

/** 'Refunded by the reply guarantee': '2 · $40.00', or '0' without any. */
export const guaranteeRefundsText = (count: number, amount: string) => (count === 0 ? "0" : `${count} · ${amount}`);
