import { ArrowLeft, BadgeCheck, ExternalLink, MapPin, ShieldCheck } from "#app/components/icons.tsx";
import type { ReactNode } from "react";
import { Link } from "#app/components/link.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { DiggerAvatar } from "#app/components/digger-avatar.tsx";
import { Rating } from "#app/components/rating.tsx";
import { ReferenceList } from "#app/features/diggers/reference-list.tsx";
import { SectionCard } from "#app/features/diggers/section-card.tsx";
import { WorkPhotoGallery } from "#app/features/diggers/work-photo-gallery.tsx";
import { ReviewsSection } from "#app/features/reviews/reviews-section.tsx";
import { openGraph, pageMeta, publicUrlFrom } from "#app/lib/meta.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { CREDENTIAL_KINDS, CREDENTIALS, verifiedCredentialText, type CredentialKind } from "#core/credential-texts.ts";
import { displayHandle, hourlyRateText } from "#core/digger-display.ts";
import { KEPT_VISITS_TERM } from "#core/kept-visits.ts";
import { askReferenceContact } from "#server/diggers/ask-reference-contact.ts";
import { replyOnProfile } from "#server/diggers/reply-to-review.ts";
import { reportOnProfile } from "#server/diggers/report-review.ts";
import { diggerProfilePage } from "#server/diggers/view-profile.ts";
import { serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/digger";

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, diggerProfilePage);
}

/** Three forms: a client asks for a reference's contact (any other intent); the digger replies to a review; a signed-in user reports one. */
export async function action(args: Route.ActionArgs) {
  return serveIntents(args, { reply: replyOnProfile, "report-review": reportOnProfile, "*": askReferenceContact }, {
    // A report's failure names its review: without JavaScript the page shows it beside that review's form.
    echo: (form, intent) => (intent === "report-review" ? { reportedReviewId: String(form.get("reviewId") ?? "") } : {}),
  });
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return pageMeta("Digger Profile", "A digger's public profile: skills, rates, credentials and work.");
  const title = `${displayHandle(data.digger.handle)}, ${data.digger.profession}`;
  const description = `${data.digger.profession} in ${data.digger.location}.`;
  const base = publicUrlFrom(matches);
  const image = data.digger.profileImageUrl ? `${base}${data.digger.profileImageUrl}` : null;
  return [...pageMeta(title, description), ...openGraph({ title, description, url: `${base}${location.pathname}`, image })];
};

export default function DiggerProfile({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData);
  const { digger, references, reviews, viewer } = loaderData;
  const handle = displayHandle(digger.handle);
  const rate = hourlyRateText(digger.hourlyRateMinCents, digger.hourlyRateMaxCents);
  // Verified (identity) and a credential with a proof are checked by an operator; any other
  // credential is the digger's own word, and says so (docs/decisions/0028).
  const verified = new Map(digger.verifiedCredentials.map((c) => [c.credential, c.verifiedOnText]));
  const claimed: Record<CredentialKind, boolean> = { insured: digger.isInsured, bonded: digger.isBonded, licensed: digger.isLicensed === "yes" };
  const checked = CREDENTIAL_KINDS.filter((kind) => verified.has(kind));
  const credentials = CREDENTIAL_KINDS.filter((kind) => claimed[kind] && !verified.has(kind)).map((kind) => CREDENTIALS[kind]);

  return (
    <div className="grid gap-6">
      <div>
        <Button asChild variant="ghost" size="sm">
          <Link to="/browse-diggers">
            <ArrowLeft aria-hidden="true" />
            Back to Browse
          </Link>
        </Button>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="grid content-start gap-6">
          <Card>
            <CardContent className="flex flex-wrap items-start gap-6">
              <DiggerAvatar handle={digger.handle} imageUrl={digger.profileImageUrl} className="size-24" />
              <div className="grid min-w-0 flex-1 gap-2">
                <h1 className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere]">{handle}</h1>
                <p className="text-lg text-muted-foreground">{digger.profession}</p>
                <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
                  <MapPin aria-hidden="true" className="size-4" />
                  {digger.location}
                </p>
                <Rating rating={digger.averageRating} count={digger.totalRatings} />
                {digger.verified || checked.length + credentials.length > 0 ? (
                  <ul aria-label="Credentials" className="flex flex-wrap gap-2">
                    {digger.verified ? (
                      <li>
                        <Badge>
                          <BadgeCheck aria-hidden="true" />
                          Verified by Digs &amp; Gigs
                        </Badge>
                      </li>
                    ) : null}
                    {checked.map((kind) => (
                      <li key={kind}>
                        <Badge className="whitespace-normal">
                          <ShieldCheck aria-hidden="true" />
                          {verifiedCredentialText(kind, verified.get(kind)!)}
                        </Badge>
                      </li>
                    ))}
                    {credentials.map((credential) => (
                      <li key={credential}>
                        <Badge variant="outline">
                          <ShieldCheck aria-hidden="true" />
                          {`${credential} (self-reported)`}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {credentials.length > 0 ? (
                  <p className="text-xs text-muted-foreground">Self-reported: stated by the digger, not yet checked by Digs &amp; Gigs.</p>
                ) : null}
              </div>
            </CardContent>
          </Card>

          <SectionCard title="About">
            <p className="whitespace-pre-line">{digger.bio}</p>
          </SectionCard>

          <SectionCard title="Skills & Categories">
            {digger.skills.length + digger.categories.length === 0 ? (
              <p className="text-muted-foreground">No categories listed yet.</p>
            ) : (
              <ul aria-label="Skills and categories" className="flex flex-wrap gap-2">
                {digger.skills.map((name) => (
                  <li key={name}>
                    <Badge variant="secondary">{name}</Badge>
                  </li>
                ))}
                {digger.categories.map((name) => (
                  <li key={name}>
                    <Badge variant="outline">{name}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </SectionCard>

          <SectionCard title="Past Work">
            {digger.workPhotos.length === 0 ? (
              <p className="text-muted-foreground">No work photos yet.</p>
            ) : (
              <WorkPhotoGallery photos={digger.workPhotos} handle={handle} />
            )}
            {digger.portfolioUrl ? (
              <p>
                <a
                  href={digger.portfolioUrl}
                  target="_blank"
                  rel="noopener noreferrer nofollow ugc"
                  className="inline-flex items-center gap-1.5 text-primary-strong underline underline-offset-4"
                >
                  View Portfolio
                  <ExternalLink aria-hidden="true" className="size-4" />
                </a>
              </p>
            ) : null}
          </SectionCard>

          <section id="reviews" aria-label="Reviews" className="scroll-mt-20">
            <SectionCard title="Reviews">
              <ReviewsSection
                summary={reviews.summary}
                page={reviews.page}
                handle={handle}
                isOwner={viewer.isOwner}
                signedIn={viewer.signedIn}
                report={{ open: loaderData.reportReviewId, result: actionData }}
                firstPage={!loaderData.reviewsCursor}
              />
            </SectionCard>
          </section>

          <SectionCard title="Client References">
            <ReferenceList references={references} canRequest={viewer.canRequestContact && !viewer.isOwner} />
          </SectionCard>
        </div>

        <aside aria-label="Work with this digger" className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2 className="text-lg">Work with {handle}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                {rate ? <Fact term="Rate">{rate}</Fact> : null}
                {digger.yearsExperience !== null ? (
                  <Fact term="Experience">
                    {digger.yearsExperience} {digger.yearsExperience === 1 ? "year" : "years"}
                  </Fact>
                ) : null}
                {digger.availability ? <Fact term="Availability">{digger.availability}</Fact> : null}
                {digger.hireRate ? <Fact term="Track record">{digger.hireRate}</Fact> : null}
                {digger.responseTime ? <Fact term="Response time">{digger.responseTime}</Fact> : null}
                {digger.keptVisits ? <Fact term={KEPT_VISITS_TERM}>{digger.keptVisits}</Fact> : null}
              </dl>
              {viewer.isOwner ? (
                // Their own profile: nothing to connect to, but something to keep up to date.
                <Button asChild>
                  <Link to="/digger-registration">Edit Profile</Link>
                </Button>
              ) : (
                <>
                  <p className="text-sm text-muted-foreground">Post your project for free; diggers who fit it get in touch.</p>
                  <Button asChild>
                    <Link to="/post-gig">Post a Gig to Connect</Link>
                  </Button>
                </>
              )}
            </CardContent>
          </Card>
        </aside>
      </div>
    </div>
  );
}


function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </>
  );
}
