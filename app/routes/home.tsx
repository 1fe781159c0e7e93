import { BadgeCheck, ClipboardList, EyeOff, Hammer, HandCoins, Search, Sparkles, Users, type IconType } from "#app/components/icons.tsx";
import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { marketingTargets } from "#app/features/marketing/cta.ts";
import { LeadPricing } from "#app/features/marketing/lead-pricing.tsx";
import { sampleDiggers, sampleGigs } from "#app/features/marketing/samples.ts";
import { FeaturedDiggerCard, RecentGigCard, type ShowcaseDigger, type ShowcaseGig } from "#app/features/marketing/showcase.tsx";
import { clientSteps, diggerSteps, type Step } from "#app/features/marketing/steps.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { useOptionalUser } from "#app/lib/user.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import { landingPage } from "#server/marketing/landing.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/home";

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, landingPage);
}

export const meta = () =>
  pageMeta(PRODUCT_NAME, "Post a gig for free, or find local work and pay only for the leads you want.");

/** Static marketing figures (spec section 1). */
const figures = [
  { value: "10K+", label: "Diggers" },
  { value: "5K+", label: "Projects" },
  { value: "98%", label: "Satisfaction" },
];

const features: Array<{ icon: IconType; title: string; text: string }> = [
  {
    icon: BadgeCheck,
    title: "Verified Profiles",
    text: "Diggers show their credentials (insured, bonded, licensed), ratings and client references, so you know who you are hiring.",
  },
  {
    icon: Sparkles,
    title: "Smart Matching",
    text: "Gigs are filed by category and searchable by keyword, so the right diggers find your job and diggers find work they do.",
  },
  {
    icon: ClipboardList,
    title: "Project Management Tools",
    text: "My Gigs and My Leads keep your posts, purchased leads and reported issues in one place, with a switch to close or reopen a gig.",
  },
  {
    icon: Users,
    title: "Community",
    text: "Ratings and references from real clients help good diggers stand out and help clients choose with confidence.",
  },
  {
    icon: HandCoins,
    title: "Pay Per Lead",
    text: "Clients post for free. Diggers pay a one-time fee only for the leads they want: no subscriptions, no commissions.",
  },
  {
    icon: EyeOff,
    title: "Identity Protection",
    text: "Diggers appear by handle only, and a client's contact details go only to the diggers who buy that lead.",
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const user = useOptionalUser();
  const targets = marketingTargets(user !== null);

  const liveDiggers: ShowcaseDigger[] = loaderData.diggers.map((d) => ({
    key: d.id,
    name: d.handle,
    profession: d.profession,
    expertise: d.expertise,
    rating: d.averageRating,
    reviewCount: d.totalRatings,
    imageUrl: d.profileImageUrl,
    href: `/digger/${d.id}`,
  }));
  const liveGigs: ShowcaseGig[] = loaderData.gigs.map((g) => ({
    key: g.id,
    title: g.title,
    description: g.description,
    budgetMinCents: g.budgetMinCents,
    budgetMaxCents: g.budgetMaxCents,
    timeline: g.timeline,
    category: g.categoryName,
    purchases: g.purchaseCount,
    href: `/gig/${g.id}`,
  }));
  const diggersAreSamples = liveDiggers.length === 0;
  const gigsAreSamples = liveGigs.length === 0;
  const diggers = diggersAreSamples ? sampleDiggers : liveDiggers;
  const gigs = gigsAreSamples ? sampleGigs : liveGigs;

  return (
    <div className="grid gap-20">
      {/* Hero */}
      <section className="-mx-4 -mt-8 bg-gradient-to-b from-primary/15 to-transparent px-4 pt-14 pb-4 text-center sm:mx-0 sm:mt-0 sm:rounded-3xl sm:pt-20">
        <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">{PRODUCT_NAME}</h1>
        <p className="mt-4 text-xl font-semibold text-balance sm:text-2xl">
          Find local talent. Find local work.
        </p>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-balance text-muted-foreground">
          Clients post service requests for free. Diggers build a profile, find work nearby and pay a one-time fee
          only for the leads they want.
        </p>
        {/* Post a Gig first, the main action: above the fold on a phone (375 x 812). */}
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to={targets.postGig}>
              <ClipboardList aria-hidden="true" />
              Post a Gig
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={targets.findTalent}>
              <Search aria-hidden="true" />
              Find Talent
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={targets.becomeDigger}>
              <Hammer aria-hidden="true" />
              Build My Digs
            </Link>
          </Button>
        </div>
        <Form
          method="get"
          action="/browse-diggers"
          role="search"
          aria-label="Find talent"
          className="mx-auto mt-8 grid max-w-2xl gap-3 rounded-2xl border bg-card p-4 text-left shadow-sm sm:grid-cols-[1fr_12rem_auto] sm:items-end"
        >
          <div className="grid gap-2">
            <Label htmlFor="hero-q">What do you need?</Label>
            <Input id="hero-q" name="q" type="search" placeholder="e.g. plumber, deck repair" maxLength={100} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="hero-location">Where?</Label>
            <Input id="hero-location" name="location" placeholder="City or ZIP" maxLength={100} autoComplete="address-level2" />
          </div>
          <Button type="submit">
            <Search aria-hidden="true" />
            Search
          </Button>
        </Form>
        <dl className="mx-auto mt-12 grid max-w-xl grid-cols-3 gap-4">
          {figures.map((figure) => (
            <div key={figure.label} className="flex flex-col-reverse">
              <dt className="text-sm text-muted-foreground">{figure.label}</dt>
              <dd className="text-2xl font-bold sm:text-3xl">{figure.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      {/* How it works, for both sides */}
      <section aria-labelledby="how-heading">
        <SectionHeading id="how-heading" title="How Digs & Gigs Works">
          Two sides, one simple idea: clients describe the job, diggers choose the jobs they want.
        </SectionHeading>
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          <StepsCard title="For Clients" steps={clientSteps}>
            <p className="text-sm text-muted-foreground">Posting a gig is free, and so is hiring.</p>
          </StepsCard>
          <StepsCard title="For Diggers" steps={diggerSteps}>
            <Button asChild variant="outline" className="w-full sm:w-auto">
              <Link to={targets.becomeDigger}>Create Your Dig</Link>
            </Button>
          </StepsCard>
        </div>
      </section>

      {/* Features */}
      <section aria-labelledby="features-heading">
        <SectionHeading id="features-heading" title={`Why ${PRODUCT_NAME}`}>
          Everything you need to find the right person for the job, or the right job for you.
        </SectionHeading>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full gap-3">
                <CardHeader>
                  <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/15">
                    <Icon aria-hidden="true" className="size-5 text-primary-strong" />
                  </span>
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

      {/* Featured diggers */}
      <section aria-labelledby="diggers-heading">
        <SectionHeading id="diggers-heading" title="Featured Diggers">
          {diggersAreSamples
            ? "Examples of the profiles you will find here: the first diggers to join will appear in their place."
            : "Our top-rated diggers, as rated by their clients."}
        </SectionHeading>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {diggers.map((digger) => (
            <li key={digger.key}>
              <FeaturedDiggerCard digger={digger} />
            </li>
          ))}
        </ul>
        <div className="mt-6 text-center">
          <Button asChild variant="link">
            <Link to="/browse-diggers">Browse All Talent</Link>
          </Button>
        </div>
      </section>

      {/* Recent gigs */}
      <section aria-labelledby="gigs-heading">
        <SectionHeading id="gigs-heading" title="Recent Gigs">
          {gigsAreSamples
            ? "Examples of the gigs clients post: the first real gigs will appear in their place."
            : "The newest open gigs posted by clients."}
        </SectionHeading>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {gigs.map((gig) => (
            <li key={gig.key}>
              <RecentGigCard gig={gig} />
            </li>
          ))}
        </ul>
        <div className="mt-6 text-center">
          <Button asChild variant="link">
            <Link to="/browse-gigs">Browse All Gigs</Link>
          </Button>
        </div>
      </section>

      <LeadPricing />

      {/* Closing call to action */}
      <section
        aria-labelledby="closing-heading"
        className="rounded-2xl bg-primary/15 px-6 py-12 text-center sm:px-12"
      >
        <h2 id="closing-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Ready to Get Started?
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          Tell local diggers what you need. Posting a gig is free and takes only a few minutes.
        </p>
        <Button asChild size="lg" className="mt-6">
          <Link to={targets.postGig}>Post a Gig</Link>
        </Button>
      </section>
    </div>
  );
}

function SectionHeading({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-2xl font-bold tracking-tight sm:text-3xl">
        {title}
      </h2>
      <p className="mt-3 text-muted-foreground">{children}</p>
    </div>
  );
}

function StepsCard({ title, steps, children }: { title: string; steps: Step[]; children: React.ReactNode }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <h3 className="text-xl font-semibold">{title}</h3>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-6">
        <ol className="grid gap-5">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground"
              >
                {index + 1}
              </span>
              <div>
                <p className="font-semibold">{step.title}</p>
                <p className="text-sm text-muted-foreground">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="mt-auto">{children}</div>
      </CardContent>
    </Card>
  );
}
