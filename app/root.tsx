import { useEffect, useRef } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, ScrollRestoration, useLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { ScriptsAfterPaint } from "#app/components/scripts-after-paint.tsx";
import { NotFoundPage } from "#app/components/not-found-page.tsx";
import { FetcherToasts } from "#app/components/fetcher-toasts.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { SiteHeader } from "#app/components/site-header.tsx";
import { ToastHost } from "#app/components/toast-host.tsx";
import { useNonce } from "#app/lib/nonce.ts";
import { useServiceWorker } from "#app/lib/service-worker.ts";
import { showToast } from "#app/lib/toasts.ts";
import { siteHeader } from "#server/site-header.ts";
import { serveLoader } from "#server/web/operations.ts";
import { setCookieHeaders, takeFlash, type Flash } from "#server/web/flash.ts";
import stylesheet from "./app.css?url";

/**
 * Every page's shared data: the site header's (the signed-in user, the bell's and Messages'
 * unread counts, a digger's own profile: one operation, one query, server/site-header.ts) and
 * a one-time flash message. The cookies go out with it, never in its data: the flash cleared,
 * the session's refreshed (the operation's `sessionCookies`).
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const [{ sessionCookies, ...header }, { flash, clear }] = await Promise.all([
    serveLoader(args, siteHeader),
    takeFlash(context.services.config, request),
  ]);
  const headers = setCookieHeaders(clear ? [...sessionCookies, clear] : sessionCookies);
  return data({ ...header, flash, publicUrl: context.services.config.publicUrl }, { headers });
}

/** Forwards the loader's cookies (flash cleared, session refreshed) on document requests. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const links: Route.LinksFunction = () => [
  // First in <head>: the one render-blocking file, asked for before the page's modulepreloads
  // (React Router writes a route's imported CSS after them, behind 15-30 scripts on HTTP/1.1).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // The installable app (pwa/README.md): its manifest and the home-screen icon of iOS.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  useHydratedMark();
  useServiceWorker();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#fc9f30" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:p-2"
        >
          Skip to content
        </a>
        <SiteHeader />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
          {children}
        </main>
        <SiteFooter />
        <ToastHost />
        <ScrollRestoration nonce={nonce} />
        <ScriptsAfterPaint nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useFlashToast(useLoaderData<typeof loader>().flash);
  return (
    <>
      <Outlet />
      <FetcherToasts />
    </>
  );
}

/**
 * Marks the document once React has hydrated it (`<html data-hydrated>`): before that, a
 * click on a submit button posts the form without JavaScript (no busy state, no client-side
 * checks). The browser tests wait for it after every page load (tests/e2e/fixtures.ts). Parts
 * in a boundary of their own (RenderSegment: My Leads' cards) hydrate just after, and at once
 * when clicked.
 */
function useHydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
}

function useFlashToast(flash: Flash | null) {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!flash || shown.current === flash.id) return;
    shown.current = flash.id;
    showToast(flash.kind, flash.message);
  }, [flash]);
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const title = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-muted-foreground">Please try again in a moment.</p>
    </section>
  );
}

