import { Link, NavLink } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME } from "#app/lib/meta.ts";

const navLinks = [
  { to: "/browse-gigs", label: "Browse Gigs" },
  { to: "/browse-diggers", label: "Find Talent" },
  { to: "/how-it-works", label: "How It Works" },
  { to: "/contact", label: "Contact" },
];

export function SiteHeader() {
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="text-xl font-bold tracking-tight">
          {PRODUCT_NAME}
        </Link>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          {navLinks.map((link) => (
            <Button key={link.to} asChild variant="ghost" size="sm">
              <NavLink to={link.to}>{link.label}</NavLink>
            </Button>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to="/auth">Sign In</Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/auth?redirect=/post-gig">Get Started</Link>
          </Button>
        </div>
      </div>
    </header>
  );
}
