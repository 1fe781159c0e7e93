import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { guaranteeRefundsText, LEDGER_TEXTS, type LeadLedger, type LedgerTotals } from "#core/lead-ledger.ts";
import { formatPrice } from "#core/money.ts";

const ROWS: { label: string; value: (totals: LedgerTotals) => string }[] = [
  { label: LEDGER_TEXTS.leadsBought, value: (t) => String(t.leadsBought) },
  { label: LEDGER_TEXTS.totalSpent, value: (t) => formatPrice(t.spentCents) },
  { label: LEDGER_TEXTS.totalRefunded, value: (t) => formatPrice(t.refundedCents) },
  { label: LEDGER_TEXTS.guaranteeRefunded, value: (t) => guaranteeRefundsText(t.guaranteeRefunds, formatPrice(t.guaranteeRefundedCents)) },
  { label: LEDGER_TEXTS.netSpent, value: (t) => formatPrice(t.netCents) },
  { label: LEDGER_TEXTS.quotesSent, value: (t) => String(t.quotesSent) },
  { label: LEDGER_TEXTS.quotesAccepted, value: (t) => String(t.quotesAccepted) },
  { label: LEDGER_TEXTS.hires, value: (t) => String(t.hires) },
  { label: LEDGER_TEXTS.netPerHire, value: (t) => (t.netPerHireCents === null ? LEDGER_TEXTS.none : formatPrice(t.netPerHireCents)) },
];

/** The digger's ledger at the top of /my-leads: the last 30 days and all time, side by side. */
export function LeadLedgerSummary({ ledger }: { ledger: LeadLedger }) {
  return (
    <Card className="mb-8 gap-3">
      <CardHeader>
        <CardTitle id="ledger-title" className="text-lg">
          {LEDGER_TEXTS.title}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <table className="w-full max-w-xl text-sm" aria-labelledby="ledger-title">
          <thead>
            <tr className="border-b text-muted-foreground">
              <td className="pb-2" />
              <th scope="col" className="pb-2 pl-3 text-right font-medium">
                {LEDGER_TEXTS.last30Days}
              </th>
              <th scope="col" className="pb-2 pl-3 text-right font-medium">
                {LEDGER_TEXTS.allTime}
              </th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row.label} className="border-b last:border-b-0">
                <th scope="row" className="py-2 text-left font-medium">
                  {row.label}
                </th>
                <td className="py-2 pl-3 text-right whitespace-nowrap tabular-nums">{row.value(ledger.last30Days)}</td>
                <td className="py-2 pl-3 text-right whitespace-nowrap tabular-nums">{row.value(ledger.allTime)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
