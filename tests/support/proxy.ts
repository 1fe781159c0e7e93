/**
 * A small reverse proxy in front of several servers, as a load balancer in a deployment:
 * requests go to the live backends in turn, with the client's address appended to
 * X-Forwarded-For (so the servers run with TRUST_PROXY=1) and the scheme the client used in
 * X-Forwarded-Proto. With `tls` it ends HTTPS, as production's proxies do: browsers reach it at
 * https://, and it passes the request on over plain HTTP with the Host they sent. A backend that refuses or drops a
 * connection is marked down and the request is answered 502; every answer says which backend
 * it came from (`X-Backend`), so a test can tell the servers that stayed from one it killed.
 * `pin(i)` sends the next requests to backend i only, for steps that must hit one server.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestCertificate } from "./tls-certificate.ts";

export interface TestProxy {
  url: string;
  /** Backends taken out after a failed connection. */
  down: Set<number>;
  /** Answers by backend index: how many, how many 5xx, and how many broken off mid-way. */
  answers: Array<{ total: number; errors: number; aborted: number }>;
  pin(backend: number | null): void;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: any), over HTTPS with `tls` (tls-certificate.ts), and forwards to
 * `backends` (origins such as http://127.0.0.1:4100).
 */
export async function startProxy(backends: string[], { port = 0, tls }: { port?: number; tls?: TestCertificate } = {}): Promise<TestProxy> {
  // A new connection per request: a kept-alive one that its server closed as a request went
  // out would look like a dead backend.
  const agents = backends.map(() => new Agent({ keepAlive: false }));
  const down = new Set<number>();
  const answers = backends.map(() => ({ total: 0, errors: 0, aborted: 0 }));
  let next = 0;
  let pinned: number | null = null;

  const choose = (): number => {
    if (pinned !== null) return pinned;
    for (let i = 0; i < backends.length; i += 1) {
      const candidate = (next + i) % backends.length;
      if (!down.has(candidate)) {
        next = candidate + 1;
        return candidate;
      }
    }
    return next++ % backends.length;
  };

  const answer = (res: ServerResponse, backend: number, status: number, headers: Record<string, string | string[] | undefined>) => {
    answers[backend]!.total += 1;
    if (status >= 500) answers[backend]!.errors += 1;
    res.writeHead(status, { ...headers, "x-backend": String(backend) });
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const backend = choose();
    const target = new URL(req.url ?? "/", backends[backend]);
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    // The scheme is the proxy's to say: whatever a client sent in the header is replaced.
    const headers = { ...req.headers, "x-forwarded-for": forwardedFor, "x-forwarded-proto": tls ? "https" : "http" };
    const upstream = request(
      target,
      { method: req.method, headers, agent: agents[backend] },
      (backendRes) => {
        answer(res, backend, backendRes.statusCode ?? 502, backendRes.headers);
        backendRes.pipe(res);
        // The backend died while answering: the client's answer breaks off too, as it would.
        backendRes.on("error", () => {
          answers[backend]!.aborted += 1;
          res.destroy();
        });
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      // A backend that is gone (killed, or not listening): out of the rotation from now on.
      if (["ECONNREFUSED", "ECONNRESET", "EPIPE"].includes(error.code ?? "")) down.add(backend);
      if (res.headersSent) {
        answers[backend]!.aborted += 1;
        return void res.destroy();
      }
      answer(res, backend, 502, { "content-type": "text/plain" });
      res.end(`backend ${backend}: ${error.code ?? error.message}`);
    });
    req.pipe(upstream);
  };
  const server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, forward) : createServer(forward);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    down,
    answers,
    pin: (backend) => (pinned = backend),
    close: async () => {
      for (const agent of agents) agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
