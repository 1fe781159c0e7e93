import { Menu, X } from "#app/components/icons.tsx";
import { type ReactNode, type Ref, useCallback, useEffect, useRef, useState } from "react";
import { Form, useLocation } from "react-router";
import { Link, NavLink } from "#app/components/link.tsx";
import { NotificationBell } from "#app/components/notification-bell.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { useMyArea, useMyProfileId, useOptionalUser, useUnreadThreads } from "#app/lib/user.ts";
import { unreadBadge } from "#core/bell.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import type { SessionUser } from "#core/session-user.ts";

/** The spec's two links, for everyone, after the role's own. */
const publicLinks: HeaderLink[] = [
  { to: "/how-it-works", label: "How It Works" },
  { to: "/contact", label: "Contact" },
];

/**
 * The top bar's links by role, in this order in the bar and in the phone menu: a visitor finds
 * both lists; a digger finds work first (in their own area once their profile has one); a
 * client posts first. Messages carries the number of unread threads, named like the bell's
 * ('Messages, 2 unread'); Visits follows it. The spec's actions (Sign In, Get Started, Complete Profile, Sign Out)
 * are HeaderActions; a client's Post a Gig is their first link, drawn as the main button.
 */
function navLinks(user: SessionUser | null, unreadThreads: number, myArea: string | null): HeaderLink[] {
  if (!user) return [{ to: "/browse-gigs", label: "Browse Gigs" }, { to: "/browse-diggers", label: "Browse Talent" }, ...publicLinks];
  const messages = { to: "/messages", label: "Messages", badge: unreadThreads };
  // Site visits booked in the conversations (issue 50), beside them.
  const visits = { to: "/visits", label: "Visits" };
  // The console's link only for operators; for everyone else /ops is the 404 page.
  const account = [...(user.operator ? [{ to: "/ops", label: "Operator console" }] : []), { to: "/account", label: "Account" }];
  const own =
    user.userType === "digger"
      ? [
          { to: myArea ? `/browse-gigs?${new URLSearchParams({ location: myArea })}` : "/browse-gigs", label: "Browse Gigs" },
          { to: "/my-leads", label: "My Leads" },
          messages,
          visits,
          { to: "/reference-requests", label: "Reference Requests" },
          ...account,
        ]
      : [
          { to: "/post-gig", label: "Post a Gig", main: true },
          { to: "/my-gigs", label: "My Gigs" },
          messages,
          visits,
          { to: "/browse-diggers", label: "Browse Talent" },
          ...account,
        ];
  return [...own, ...publicLinks];
}

export function SiteHeader() {
  const user = useOptionalUser();
  const location = useLocation();
  // The sign-in page is where these lead; there they would only repeat its own buttons.
  const onAuthPage = location.pathname === "/auth";
  const unreadThreads = useUnreadThreads();
  const links = navLinks(user, unreadThreads, useMyArea());
  // Below 768 px the links and actions fold into a menu (a disclosure), so the bar is one row.
  const [menu, setMenu] = useState({ open: false, at: location.key });
  if (menu.open && menu.at !== location.key) setMenu({ open: false, at: location.key });
  const menuOpen = menu.open && menu.at === location.key;
  // Opened natively before hydration: the scripted menu takes over open (MenuToggle).
  const keepOpened = useCallback((details: HTMLDetailsElement | null) => {
    if (details?.open) setMenu({ open: true, at: location.key });
  }, [location.key]);
  // Escape closes the open menu and gives the focus back to its button; a click outside it closes it.
  const menuButton = useRef<HTMLButtonElement>(null);
  const menuPanel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const close = () => setMenu((current) => ({ ...current, open: false }));
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      close();
      menuButton.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (menuButton.current?.contains(target) || menuPanel.current?.contains(target)) return;
      close();
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [menuOpen]);
  const panel = <MenuPanel links={links} user={user} onAuthPage={onAuthPage} />;
  return (
    <header className="relative border-b bg-background">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3 md:flex-wrap">
        <Link to="/" className="text-xl font-bold tracking-tight">
          {PRODUCT_NAME}
        </Link>
        <MainNav links={links} size="sm" className="hidden flex-wrap items-center gap-1 md:flex" />
        <div className="flex items-center gap-2">
          {user ? <NotificationBell /> : null}
          <div className="hidden items-center gap-2 md:flex">
            <HeaderActions user={user} onAuthPage={onAuthPage} />
          </div>
          <MenuToggle open={menuOpen} buttonRef={menuButton} onToggle={() => setMenu({ open: !menuOpen, at: location.key })} onOpenedEarly={keepOpened}>
            {panel}
          </MenuToggle>
        </div>
      </div>
      {/* Only ever open in the browser: the server's and the hydrating render have it closed. */}
      {menuOpen ? (
        <div id="site-menu" ref={menuPanel} className="border-t md:hidden">
          {panel}
        </div>
      ) : null}
    </header>
  );
}

/**
 * The phone menu's toggle: a native disclosure in the server's HTML and until hydration (it works
 * without JavaScript: its panel drops below the bar, and a link loads a page whose menu is
 * closed), then a button that opens the panel SiteHeader renders below the bar. Only this part
 * reads `useHydrated`, so the render that follows hydration is this toggle, not the whole header.
 */
function MenuToggle({
  open,
  buttonRef,
  onToggle,
  onOpenedEarly,
  children,
}: {
  open: boolean;
  buttonRef: Ref<HTMLButtonElement>;
  onToggle: () => void;
  /** Called with the native disclosure when React takes it over: opened before hydration, the scripted menu stays open. */
  onOpenedEarly: (details: HTMLDetailsElement | null) => void;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  if (hydrated) {
    return (
      <Button ref={buttonRef} variant="outline" size="sm" className="md:hidden" aria-expanded={open} aria-controls="site-menu" onClick={onToggle}>
        {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        Menu
      </Button>
    );
  }
  return (
    <details ref={onOpenedEarly} className="md:hidden">
      <summary className={cn(buttonVariants({ variant: "outline", size: "sm" }), "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        <Menu aria-hidden="true" />
        Menu
      </summary>
      <div id="site-menu" className="absolute inset-x-0 top-full z-50 border-b bg-background shadow-md">
        {children}
      </div>
    </details>
  );
}

/** `main`: drawn as the bar's main button (a client's Post a Gig). */
type HeaderLink = { to: string; label: string; badge?: number; main?: boolean };

/** The bar's links: in the bar itself from 768 px, in the phone menu below that. */
function MainNav({ links, className, size, linkClassName }: { links: HeaderLink[]; className: string; size?: "sm"; linkClassName?: string }) {
  return (
    <nav aria-label="Main" className={className}>
      {links.map((link) => (
        <Button key={link.label} asChild variant={link.main ? "default" : "ghost"} size={size} className={linkClassName}>
          <NavLink to={link.to}>
            {/* Named like the bell ('Messages, 2 unread'), by its own text (no aria-label): the badge is for the eye. */}
            {link.badge ? (
              <>
                <span aria-hidden="true">{link.label}</span>
                <span className="sr-only">{`${link.label}, ${unreadBadge(link.badge)} unread`}</span>
              </>
            ) : (
              link.label
            )}
            {link.badge ? (
              <span
                data-testid="unread-threads"
                aria-hidden="true"
                className="min-w-5 rounded-full bg-primary px-1 text-center text-xs leading-5 font-semibold text-primary-foreground"
              >
                {unreadBadge(link.badge)}
              </span>
            ) : null}
          </NavLink>
        </Button>
      ))}
    </nav>
  );
}

/** The phone menu's contents: the bar's links, then its actions. */
function MenuPanel({ links, user, onAuthPage }: { links: HeaderLink[]; user: SessionUser | null; onAuthPage: boolean }) {
  return (
    <div className="px-4 py-3">
      <MainNav links={links} className="grid gap-1" linkClassName="justify-start" />
      <div className="mt-3 flex flex-wrap items-center gap-2 border-t pt-3">
        <HeaderActions user={user} onAuthPage={onAuthPage} />
      </div>
    </div>
  );
}

/**
 * Complete Profile (My Profile once it exists) for a digger, and Sign Out (a client's Post a Gig
 * is their first link); or Sign In and Get Started for a visitor: Get Started is the visitor's
 * main action, posting a gig, and opens the Sign Up tab.
 */
function HeaderActions({ user, onAuthPage }: { user: SessionUser | null; onAuthPage: boolean }) {
  const myProfileId = useMyProfileId();
  if (user) {
    return (
      <>
        {user.userType === "digger" ? (
          <Button asChild size="sm">
            {myProfileId ? <Link to={`/digger/${myProfileId}`}>My Profile</Link> : <Link to="/digger-registration">Complete Profile</Link>}
          </Button>
        ) : null}
        <Form method="post" action="/sign-out">
          <Button type="submit" variant="outline" size="sm">
            Sign Out
          </Button>
        </Form>
      </>
    );
  }
  return onAuthPage ? null : (
    <>
      <Button asChild variant="outline" size="sm">
        <Link to="/auth">Sign In</Link>
      </Button>
      <Button asChild size="sm">
        <Link to="/auth?redirect=/post-gig&tab=signup">Get Started</Link>
      </Button>
    </>
  );
}
