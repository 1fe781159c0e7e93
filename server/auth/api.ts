/**
 * Calls Better Auth's own HTTP API in-process, on behalf of the browser's request: its
 * cookies and address go along, and the cookies Better Auth sets come back to be forwarded.
 * Route actions use this, so every account operation passes the same checks and rate
 * limits as a direct call to /api/auth.
 */
import type { AppLoadContext } from "react-router";
import { CLIENT_IP_HEADER } from "./auth.ts";

export interface AuthResult<T> {
  ok: boolean;
  status: number;
  data: T | null;
  /** Better Auth's own message when the call failed. */
  message: string;
  setCookies: string[];
}

export async function callAuth<T = Record<string, unknown>>(
  context: AppLoadContext,
  request: Request,
  path: string,
  body?: Record<string, unknown>,
): Promise<AuthResult<T>> {
  const { auth, config } = context.services;
  const headers = new Headers({ origin: config.publicUrl, [CLIENT_IP_HEADER]: context.clientIp });
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  const userAgent = request.headers.get("user-agent");
  if (userAgent) headers.set("user-agent", userAgent);
  if (body) headers.set("content-type", "application/json");

  const response = await auth.handler(
    new Request(`${config.publicUrl}/api/auth${path}`, {
      method: body ? "POST" : "GET",
      headers,
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  const isJson = response.headers.get("content-type")?.includes("application/json");
  const data = isJson ? ((await response.json()) as T | null) : null;
  const message =
    !response.ok && data && typeof data === "object" && "message" in data && typeof data.message === "string"
      ? data.message
      : response.ok
        ? ""
        : response.status === 429
          ? "Too many attempts. Please wait a minute and try again."
          : "Something went wrong. Please try again.";
  return { ok: response.ok, status: response.status, data, message, setCookies: response.headers.getSetCookie() };
}
