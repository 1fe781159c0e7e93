/**
 * Better Auth's HTTP endpoints, read from the live auth instance so that the security tests
 * follow the configuration: a new endpoint (a plugin, a library upgrade) needs a row, and
 * one turned off in `disabledPaths` must lose its row.
 */
import type { Auth } from "../../server/auth/auth.ts";
import type { SessionClient } from "../support/session-client.ts";

interface EndpointShape {
  path?: string;
  options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean } };
}

/** "METHOD /api/auth/path" (path parameters as in the library: "/callback/:id"). */
export type AuthRoute = `${string} ${string}`;

/** Where Better Auth is mounted, "/api/auth". */
export const authBasePath = (auth: Auth): string => auth.options.basePath ?? "/api/auth";

/** The paths the configuration turns off (Better Auth answers them 404). */
export const disabledAuthPaths = (auth: Auth): string[] => auth.options.disabledPaths ?? [];

/**
 * Every endpoint a browser can reach, one entry per method: endpoints without a path or
 * marked SERVER_ONLY are callable only from our own code, and disabled paths are off.
 */
export function enabledAuthRoutes(auth: Auth): AuthRoute[] {
  const disabled = new Set(disabledAuthPaths(auth));
  const routes: AuthRoute[] = [];
  for (const endpoint of Object.values(auth.api) as EndpointShape[]) {
    if (!endpoint.path || endpoint.options?.metadata?.SERVER_ONLY || disabled.has(endpoint.path)) continue;
    for (const method of [endpoint.options?.method ?? "GET"].flat()) routes.push(`${method} ${authBasePath(auth)}${endpoint.path}`);
  }
  return routes;
}

/** The session token in a client's cookie (the cookie holds it signed: "token.signature"). */
export function sessionTokenOf(client: SessionClient): string {
  const cookie = [...client.cookies].find(([name]) => name.endsWith("session_token"))?.[1];
  if (!cookie) throw new Error("the client has no session cookie");
  return decodeURIComponent(cookie).split(".")[0]!;
}
