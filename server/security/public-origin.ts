/**
 * The site's one public origin, PUBLIC_URL's (docs/decisions/0033-public-origin-behind-a-proxy.md).
 * Behind a proxy that ends TLS the server is reached over plain HTTP, so the Node adapter
 * builds each request's URL as `http://{Host}/…`, while the browser's Origin says `https://…`:
 * React Router's own action check compared the two and refused every form. React Router and
 * Better Auth therefore get each request at the public origin, and React Router's
 * `allowedActionOrigins` names the hosts our origin check (csrf.ts) lets through; that check
 * keeps comparing the full origin, scheme included. X-Forwarded-Proto and X-Forwarded-Host are
 * not read: PUBLIC_URL is required in production, and a header is one more thing to trust.
 */
import { LOOPBACK_HOSTS } from "./csrf.ts";

/** `request` at `origin` (PUBLIC_URL's): the same method, headers, body and signal. */
export function atPublicOrigin(request: Request, origin: string): Request {
  const url = new URL(request.url);
  if (url.origin === origin) return request;
  return new Request(`${origin}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    // A streamed body (Node's fetch) must say so.
    ...(request.body ? { duplex: "half" } : {}),
  });
}

/**
 * React Router's `allowedActionOrigins` (hosts, without a scheme): the public URL's host, and
 * in local mode its loopback aliases on the same port, which csrf.ts lets through too.
 */
export function actionOriginHosts(publicUrl: string, loopbackAliases: boolean): string[] {
  const url = new URL(publicUrl);
  if (!loopbackAliases || !LOOPBACK_HOSTS.has(url.hostname)) return [url.host];
  return [...LOOPBACK_HOSTS].map((host) => (url.port ? `${host}:${url.port}` : host));
}
