/**
 * One-time messages carried across a redirect (design.md section 2): set on the redirect,
 * read and cleared by the next page's root loader, shown there as a toast.
 */
import { createCookie, redirect } from "react-router";
import type { Config } from "../config.ts";

export type FlashKind = "success" | "error" | "info";
export interface Flash {
  id: string;
  kind: FlashKind;
  message: string;
}

function flashCookie(config: Config) {
  return createCookie("dg_flash", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config.secureCookies,
    secrets: [config.authSecret],
    maxAge: 60,
  });
}

async function flashHeader(config: Config, kind: FlashKind, message: string): Promise<string> {
  return flashCookie(config).serialize({ id: crypto.randomUUID(), kind, message } satisfies Flash);
}

/** A redirect that shows `message` on the next page, forwarding any other cookies given. */
export async function redirectWithFlash(
  config: Config,
  to: string,
  kind: FlashKind,
  message: string,
  setCookies: string[] = [],
): Promise<Response> {
  return redirect(to, { headers: setCookieHeaders([...setCookies, await flashHeader(config, kind, message)]) });
}

/** The pending flash message, if any, and the header that clears it. */
export async function takeFlash(config: Config, request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const cookie = flashCookie(config);
  const value: unknown = await cookie.parse(request.headers.get("cookie"));
  if (!value || typeof value !== "object" || !("message" in value)) return { flash: null, clear: null };
  return { flash: value as Flash, clear: await cookie.serialize("", { maxAge: 0 }) };
}

/** Response headers that set each of `cookies` (the flash, the cookies Better Auth hands back). */
export function setCookieHeaders(cookies: string[], headers = new Headers()): Headers {
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}
