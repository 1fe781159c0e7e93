import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { pageMeta, PRODUCT_NAME } from "#app/lib/meta.ts";

export const meta = () =>
  pageMeta(PRODUCT_NAME, "Post a gig for free, or find local work and pay only for the leads you want.");

export default function Home() {
  return (
    <section className="py-12 text-center">
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{PRODUCT_NAME}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
        Clients post service requests for free. Diggers find local work and pay a one-time fee only for the leads
        they want.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild size="lg">
          <Link to="/auth?redirect=/post-gig">Post a Gig</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/auth?redirect=/browse-diggers">Find Talent</Link>
        </Button>
        <Button asChild size="lg" variant="secondary">
          <Link to="/auth?type=digger&redirect=/digger-registration">Build My Digs</Link>
        </Button>
      </div>
    </section>
  );
}
