import { Link } from "#app/components/link.tsx";
import { PRODUCT_NAME } from "#core/product.ts";

const footerLinks = [
  { to: "/how-it-works", label: "How It Works" },
  { to: "/browse-gigs", label: "Browse Gigs" },
  { to: "/browse-diggers", label: "Browse Talent" },
  { to: "/contact", label: "Contact" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/privacy", label: "Privacy Policy" },
];

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t bg-muted/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          © {new Date().getFullYear()} {PRODUCT_NAME}. Clients post free; diggers pay per lead.
        </p>
        {/* Tap targets: 44 px tall on a phone, 24 px (WCAG 2.2's least) from 640 px. */}
        <nav aria-label="Footer" className="flex flex-wrap gap-x-4 text-sm">
          {footerLinks.map((link) => (
            <Link key={link.to} to={link.to} className="inline-flex min-h-11 items-center underline-offset-4 hover:underline sm:min-h-6">
              {link.label}
            </Link>
          ))}
        </nav>
      </div>
    </footer>
  );
}
