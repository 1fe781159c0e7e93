/**
 * A simulated user of a server reached over real HTTP (the server as a child process): its
 * own keep-alive connections from its own loopback address (127.x.y.z, so per-address rate
 * limits see one person each, as they would in production), its cookies, gzip like a
 * browser, and a deadline on every request so a hung server fails a test instead of
 * stalling it. Redirects are not followed. An https origin (the TLS-terminating proxy) is
 * reached with the test certificate trusted.
 */
import { Agent, request } from "node:http";
import { Agent as TlsAgent, request as tlsRequest } from "node:https";
import { gunzipSync } from "node:zlib";
import { storeCookies } from "./session-client.ts";
import { testCertificate } from "./tls-certificate.ts";

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as it came (unzipped): for files. */
  bytes: Buffer;
  /** Where a redirect points, as a path on the site (or the whole URL elsewhere). */
  location: string | null;
  ms: number;
}

/** The n-th loopback address other than 127.0.0.1 (n from 0): 127.0.1.2, 127.0.1.3, ... */
export const loopbackAddress = (n: number) => `127.0.${1 + Math.floor(n / 250)}.${2 + (n % 250)}`;

export class HttpUser {
  readonly cookies = new Map<string, string>();
  /** Requests sent again because a kept-alive connection was closed under them (see `send`). */
  resent = 0;
  private readonly agent: Agent;
  private readonly request: typeof request;

  constructor(
    /** The site's origin, e.g. http://127.0.0.1:4400 (also sent as Origin with posts). */
    readonly origin: string,
    readonly localAddress = "127.0.0.1",
    readonly timeoutMs = 30_000,
  ) {
    const options = { keepAlive: true, maxSockets: 2, localAddress };
    const tls = origin.startsWith("https:");
    this.agent = tls ? new TlsAgent({ ...options, ca: testCertificate().cert }) : new Agent(options);
    this.request = tls ? tlsRequest : request;
  }

  get(path: string): Promise<HttpResponse> {
    return this.send("GET", path);
  }

  post(path: string, fields: Record<string, string>): Promise<HttpResponse> {
    return this.send("POST", path, new URLSearchParams(fields).toString());
  }

  /** A JSON API call (Better Auth's endpoints), from the same address and with the same cookies. */
  postJson(path: string, json: unknown): Promise<HttpResponse> {
    return this.send("POST", path, JSON.stringify(json), "application/json");
  }

  /**
   * A connection kept alive may be closed by the server (its keep-alive timeout) just as a
   * request goes out on it; the server never read that request, and a browser sends it again
   * on a new connection. So does this, once (Node's documentation of `request.reusedSocket`).
   */
  async send(
    method: string,
    path: string,
    body?: string | Buffer,
    contentType = "application/x-www-form-urlencoded",
    /** Sent as well, or instead of the usual ones (an `origin` of another site). */
    extraHeaders: Record<string, string> = {},
  ): Promise<HttpResponse> {
    try {
      return await this.sendOnce(method, path, body, contentType, extraHeaders);
    } catch (error) {
      if (!(error instanceof ClosedUnderUs)) throw error;
      this.resent += 1;
      return this.sendOnce(method, path, body, contentType, extraHeaders);
    }
  }

  private sendOnce(
    method: string,
    path: string,
    body: string | Buffer | undefined,
    contentType: string,
    extraHeaders: Record<string, string>,
  ): Promise<HttpResponse> {
    const started = performance.now();
    const headers: Record<string, string> = { "accept-encoding": "gzip", "user-agent": "digsandgigs-hard-test" };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (body !== undefined) {
      headers["content-type"] = contentType;
      headers["content-length"] = String(Buffer.byteLength(body));
      headers.origin = this.origin;
    }
    Object.assign(headers, extraHeaders);
    return new Promise<HttpResponse>((resolve, reject) => {
      const req = this.request(new URL(path, this.origin), { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          storeCookies(this.cookies, res.headers["set-cookie"] ?? []);
          const raw = Buffer.concat(chunks);
          const bytes = res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
          const target = res.headers.location;
          let location: string | null = null;
          if (target) {
            const url = new URL(target, this.origin);
            location = url.origin === this.origin ? `${url.pathname}${url.search}` : url.toString();
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString(), bytes, location, ms: performance.now() - started });
        });
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms: ${method} ${path}`)));
      req.on("error", (error: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && error.code === "ECONNRESET" ? new ClosedUnderUs(error.message) : error),
      );
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

class ClosedUnderUs extends Error {}
