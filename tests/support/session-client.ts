/**
 * A browser-like client for the in-process app: keeps cookies across requests, posts forms,
 * and never follows redirects by itself so tests can check where they point.
 */
import { randomInt } from "node:crypto";
import type { TestApp } from "./app.ts";

export class SessionClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: TestApp,
    /** The address the app sees as the client's, for per-IP limits. */
    readonly ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  ) {}

  async get(path: string): Promise<Response> {
    return this.send(path, { method: "GET" });
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: this.app.config.publicUrl },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A multipart form with files, as a browser posts it. */
  async postMultipart(path: string, fields: Record<string, string>, files: Array<{ field: string; file: File }>): Promise<Response> {
    const body = new FormData();
    for (const [key, value] of Object.entries(fields)) body.append(key, value);
    for (const { field, file } of files) body.append(field, file);
    return this.send(path, { method: "POST", headers: { origin: this.app.config.publicUrl }, body });
  }

  async send(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await this.app.request(path, { ...init, headers, redirect: "manual" }, this.ip);
    this.store(response.headers.getSetCookie());
    return response;
  }

  store(setCookies: string[]) {
    storeCookies(this.cookies, setCookies);
  }

  /** The cookie header value, for handing the session to another client. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Applies Set-Cookie headers to a cookie jar (name to value): sets, replaces, or deletes expired ones. */
export function storeCookies(jar: Map<string, string>, setCookies: string[]) {
  for (const header of setCookies) {
    const [pair = "", ...attributes] = header.split(";");
    const index = pair.indexOf("=");
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
}

/** Where a redirect points, as a path on the site. */
export function location(response: Response): string | null {
  const value = response.headers.get("location");
  if (!value) return null;
  const url = new URL(value, "http://localhost:3000");
  return url.host === "localhost:3000" ? `${url.pathname}${url.search}` : url.toString();
}

/**
 * Where a client navigation's or a submission's answer (`.data`, React Router's single fetch)
 * sends the browser: its redirect is a 202 whose turbo-stream body names the address.
 */
export async function dataRedirect(response: Response): Promise<string | null> {
  if (response.status !== 202) return null;
  const values = JSON.parse(await response.text()) as unknown[];
  const at = values.indexOf("redirect");
  return at >= 0 && typeof values[at + 1] === "string" ? (values[at + 1] as string) : null;
}
