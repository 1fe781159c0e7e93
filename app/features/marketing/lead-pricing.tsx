/**
 * The pay-per-lead pricing explanation (design.md section 1): diggers pay a one-time fee per
 * lead, 0.5% of the client's minimum budget with a $50.00 minimum; clients post free. There
 * are no monthly tiers, because nothing bills them.
 */
import { Check } from "#app/components/icons.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { formatMoney, formatPrice } from "#core/money.ts";

const examples: Array<{ budget: string; priceCents: number; note?: string }> = [
  { budget: formatMoney(500_000), priceCents: 5_000 },
  { budget: formatMoney(2_000_000), priceCents: 10_000 },
  { budget: "No minimum given", priceCents: 5_000, note: "the minimum fee" },
];

function Point({ children }: { children: React.ReactNode }) {
  return (
    <li className="flex gap-2">
      <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-strong" />
      <span>{children}</span>
    </li>
  );
}

export function LeadPricing({ headingId = "pricing" }: { headingId?: string }) {
  return (
    <section aria-labelledby={headingId} className="scroll-mt-8">
      <div className="mx-auto max-w-2xl text-center">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight sm:text-3xl">
          Simple, Pay-Per-Lead Pricing
        </h2>
        <p className="mt-3 text-muted-foreground">
          No subscriptions and no monthly plans. Clients post for free; diggers pay a one-time fee only for the
          leads they choose to buy.
        </p>
      </div>
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <Card className="gap-4">
          <CardHeader>
            <h3 className="text-lg font-semibold">For Clients</h3>
            <p className="text-4xl font-bold">Free</p>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2 text-sm">
              <Point>Post as many gigs as you need, free of charge</Point>
              <Point>No fees and no commissions on the work you hire for</Point>
              <Point>Diggers who buy your lead contact you directly</Point>
            </ul>
          </CardContent>
        </Card>
        <Card className="gap-4 border-primary">
          <CardHeader>
            <h3 className="text-lg font-semibold">For Diggers: Pay Per Lead</h3>
            <p>
              <span className="text-4xl font-bold">0.5%</span>{" "}
              <span className="text-muted-foreground">
                of the client&apos;s minimum budget, with a {formatPrice(5_000)} minimum
              </span>
            </p>
          </CardHeader>
          <CardContent className="grid gap-4 text-sm">
            <table className="w-full text-left">
              <caption className="mb-2 text-left font-medium">Examples</caption>
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Client&apos;s minimum budget
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Lead price
                  </th>
                </tr>
              </thead>
              <tbody>
                {examples.map((example) => (
                  <tr key={example.budget} className="border-b last:border-0">
                    <td className="py-2 pr-4">{example.budget}</td>
                    <td className="py-2 font-semibold">
                      {formatPrice(example.priceCents)}
                      {example.note ? (
                        <span className="font-normal text-muted-foreground"> ({example.note})</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ul className="grid gap-2">
              <Point>A one-time fee per lead, shown on every gig before you buy</Point>
              <Point>No monthly fee: pay only for the leads you want</Point>
              <Point>A bad lead? Report it, and the client decides on a full or partial refund</Point>
            </ul>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
