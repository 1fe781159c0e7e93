import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";

/** The 404 page: for an unknown address, and for any page a loader answers with 404 (the operator console, say). */
export function NotFoundPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-6xl font-bold">404</h1>
      <p className="mt-4 text-xl text-muted-foreground">Oops! Page not found</p>
      <Button asChild className="mt-8">
        <Link to="/">Return to Home</Link>
      </Button>
    </section>
  );
}
