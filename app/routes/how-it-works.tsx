import { BadgeCheck, EyeOff, MessageCircleReply, ReceiptText, type IconType } from "#app/components/icons.tsx";
import { Link } from "#app/components/link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { marketingTargets } from "#app/features/marketing/cta.ts";
import { LeadPricing } from "#app/features/marketing/lead-pricing.tsx";
import { clientSteps, diggerSteps, type Step } from "#app/features/marketing/steps.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { useOptionalUser } from "#app/lib/user.ts";
import { GUARANTEE_RULE } from "#core/reply-guarantee.ts";

export const meta = () => pageMeta("How It Works", "How clients post gigs for free and diggers pay only per lead.");

const trust: Array<{ icon: IconType; title: string; text: string }> = [
  {
    icon: EyeOff,
    title: "Identity Protection",
    text: "Diggers appear by handle only: their full name, business name, phone, e-mail and references stay private. A client's name, e-mail, phone (if given) and contact preferences are revealed only to the diggers who buy that lead.",
  },
  {
    icon: BadgeCheck,
    title: "Verified Credentials",
    text: "Profiles show whether a digger is insured, bonded and licensed, with ratings and client references. Clients can ask to contact a reference before hiring.",
  },
  {
    icon: ReceiptText,
    title: "Fair Refunds",
    text: "A digger can report a lead that was posted by mistake or is no longer needed. The client reviews the report and approves or rejects a full or partial refund. A fake or spam request is decided by Digs & Gigs, and every digger who bought it is refunded.",
  },
  {
    icon: MessageCircleReply,
    title: "Reply Guarantee",
    text: GUARANTEE_RULE,
  },
];

export default function HowItWorks() {
  const user = useOptionalUser();
  const targets = marketingTargets(user !== null);

  return (
    <div>
      <PageHeader
        title="How It Works"
        subtitle="Clients post for free. Diggers pay a one-time fee only for the leads they want."
      />
      <div className="grid gap-16">
        <StepsSection id="clients-heading" title="For Clients" steps={clientSteps}>
          <div className="mt-6 flex gap-3 rounded-xl border border-primary bg-primary/10 p-4">
            <BadgeCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary-strong" />
            <p>
              <strong>It&apos;s 100% free for clients.</strong> Posting a gig, hearing from diggers and hiring cost
              nothing: no posting fees, no commissions. Payment for the work is agreed directly between you and the
              digger you hire.
            </p>
          </div>
        </StepsSection>

        <StepsSection id="diggers-heading" title="For Diggers" steps={diggerSteps} />

        <LeadPricing />

        <section aria-labelledby="trust-heading">
          <h2 id="trust-heading" className="text-2xl font-bold tracking-tight">
            Trust &amp; Safety
          </h2>
          <ul className="mt-6 grid gap-6 md:grid-cols-2 xl:grid-cols-4">
            {trust.map(({ icon: Icon, title, text }) => (
              <li key={title}>
                <Card className="h-full gap-3">
                  <CardHeader className="flex items-center gap-3">
                    <Icon aria-hidden="true" className="size-5 shrink-0 text-primary-strong" />
                    <h3 className="text-lg font-semibold">{title}</h3>
                  </CardHeader>
                  <CardContent>
                    <p className="text-sm text-muted-foreground">{text}</p>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="start-heading" className="rounded-2xl bg-primary/15 px-6 py-12 text-center sm:px-12">
          <h2 id="start-heading" className="text-2xl font-bold tracking-tight">
            Ready to Get Started?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
            Post your first gig for free, or create a digger profile and start finding work.
          </p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to={targets.postGig}>Post a Gig</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to={targets.becomeDigger}>Become a Digger</Link>
            </Button>
          </div>
        </section>
      </div>
    </div>
  );
}

function StepsSection({
  id,
  title,
  steps,
  children,
}: {
  id: string;
  title: string;
  steps: Step[];
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-bold tracking-tight">
        {title}
      </h2>
      <ol className="mt-6 grid gap-6 md:grid-cols-3">
        {steps.map((step, index) => (
          <li key={step.title}>
            <Card className="h-full gap-3">
              <CardHeader className="flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground"
                >
                  {index + 1}
                </span>
                <h3 className="text-lg font-semibold">{step.title}</h3>
              </CardHeader>
              <CardContent>
                <p className="text-sm text-muted-foreground">{step.text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
      {children}
    </section>
  );
}
