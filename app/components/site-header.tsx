import { Form, Link, NavLink, useLocation } from "react-router";
import { NotificationBell } from "#app/components/notification-bell.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useOptionalUser } from "#app/lib/user.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import type { SessionUser } from "#core/session-user.ts";

/** The spec's top bar; the browse pages are reached from the page content and the footer. */
const publicLinks = [
  { to: "/how-it-works", label: "How It Works" },
  { to: "/contact", label: "Contact" },
];

function personalLinks(user: SessionUser) {
  const own =
    user.userType === "digger"
      ? [
          { to: "/my-leads", label: "My Leads" },
          { to: "/reference-requests", label: "Reference Requests" },
        ]
      : [{ to: "/my-gigs", label: "My Gigs" }];
  return [...own, { to: "/account", label: "Account" }];
}

export function SiteHeader() {
  const user = useOptionalUser();
  // The sign-in page is where these lead; there they would only repeat its own buttons.
  const onAuthPage = useLocation().pathname === "/auth";
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="text-xl font-bold tracking-tight">
          {PRODUCT_NAME}
        </Link>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          {[...publicLinks, ...(user ? personalLinks(user) : [])].map((link) => (
            <Button key={link.to} asChild variant="ghost" size="sm">
              <NavLink to={link.to}>{link.label}</NavLink>
            </Button>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          {user ? (
            <>
              <NotificationBell />
              {user.userType === "digger" ? (
                <Button asChild size="sm">
                  <Link to="/digger-registration">Complete Profile</Link>
                </Button>
              ) : (
                <Button asChild size="sm">
                  <Link to="/post-gig">Post a Gig</Link>
                </Button>
              )}
              <Form method="post" action="/sign-out">
                <Button type="submit" variant="outline" size="sm">
                  Sign Out
                </Button>
              </Form>
            </>
          ) : onAuthPage ? null : (
            <>
              <Button asChild variant="outline" size="sm">
                <Link to="/auth">Sign In</Link>
              </Button>
              <Button asChild size="sm">
                <Link to="/auth?redirect=/post-gig">Get Started</Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
