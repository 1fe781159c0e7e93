/**
 * The Content-Security-Policy of every page. React Router streams inline scripts (the router
 * context, hydration data, scroll restoration), so scripts are allowed by a nonce made fresh
 * for each request: `server/app.ts` makes it, hands it to React Router as load context, and
 * `app/entry.server.tsx` and `app/root.tsx` put it on every script they render.
 */
import { randomBytes } from "node:crypto";
import type { Config } from "../config.ts";

export const newNonce = () => randomBytes(16).toString("base64");

/** Stripe's hosted checkout, where a purchase form's redirect goes. */
const STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com";

/** Where each sign-in provider's authorization page lives (a form post redirects there). */
const OAUTH_ORIGINS: Record<keyof Config["oauth"], string[]> = {
  google: ["https://accounts.google.com"],
  github: ["https://github.com"],
  linkedin: ["https://www.linkedin.com"],
};

/**
 * The origins a form post may redirect to: Chromium applies form-action to the redirects
 * that follow a form submission (the no-JavaScript path of buying a lead or signing in with
 * a provider).
 */
export function formActionOrigins(config: Config): string[] {
  const origins = new Set<string>();
  if (config.payments.provider === "stripe") origins.add(STRIPE_CHECKOUT_ORIGIN);
  for (const [id, provider] of Object.entries(config.oauth) as Array<[keyof Config["oauth"], { discoveryUrl?: string }]>) {
    if (provider.discoveryUrl) origins.add(new URL(provider.discoveryUrl).origin);
    else for (const origin of OAUTH_ORIGINS[id]) origins.add(origin);
  }
  return [...origins];
}

export function contentSecurityPolicy(nonce: string, options: { formAction: string[]; dev?: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // Vite's hot reload talks over a WebSocket in development.
    options.dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...options.formAction].join(" "),
  ].join("; ");
}

declare module "react-router" {
  interface AppLoadContext {
    /** This request's Content-Security-Policy nonce, for every inline script. */
    cspNonce: string;
  }
}
