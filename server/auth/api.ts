/**
 * Calls Better Auth's own HTTP API in-process, on behalf of the browser's request: its
 * cookies and address go along, and the cookies Better Auth sets come back to be forwarded.
 * Account operations use this, so each passes the same checks and rate limits as a direct
 * call to /api/auth.
 */
import type { Config } from "../config.ts";
import { AppError, type AppErrorCode } from "../errors.ts";
import { CLIENT_IP_HEADER, type Auth } from "./auth.ts";

/** What one HTTP call to Better Auth answered (the transport's result, not an operation's). */
export interface AuthResult<T> {
  ok: boolean;
  status: number;
  data: T | null;
  /** Better Auth's own message when the call failed. */
  message: string;
  setCookies: string[];
}

/** Better Auth's API as one browser's request reaches it: `POST path` with a body, else `GET path`. */
export type AuthApi = <T = Record<string, unknown>>(path: string, body?: Record<string, unknown>) => Promise<AuthResult<T>>;

/** What a call needs of the request's context (React Router's load context has it). */
export interface AuthCallContext {
  services: { auth: Auth; config: Config };
  /** The client's address (server/app.ts): Better Auth's rate limits count by it. */
  clientIp: string;
}

/** Better Auth's API on behalf of `request`. */
export function authApiFor(context: AuthCallContext, request: Request): AuthApi {
  return (path, body) => callAuth(context, request, path, body);
}

async function callAuth<T>(
  context: AuthCallContext,
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

const CODE_OF_STATUS: Partial<Record<number, AppErrorCode>> = {
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "too_many_requests",
  503: "unavailable",
};

/** The error of a failed call, with its status: Better Auth's message, or the one given. */
export function authFailure(result: AuthResult<unknown>, message = result.message): AppError {
  const code = CODE_OF_STATUS[result.status] ?? (result.status >= 500 ? "failed" : "invalid_input");
  return new AppError(code, message, { status: result.status });
}
