/**
 * A local HTTP server standing in for Stripe's API: the real Stripe SDK talks to it over
 * HTTP. It answers Checkout Session creation and expiry and Refund creation, records every
 * request (form body, idempotency key), and can be told to fail or to hang.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import Stripe from "stripe";
import type { TestApp } from "./app.ts";

export interface StandInRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
}

export interface StripeStandIn {
  url: string;
  requests: StandInRequest[];
  /** "ok", answer 500, or never answer. */
  mode: "ok" | "fail" | "hang";
  /** Each session and its state: a test sets "complete" for one paid before it could be expired. */
  sessions: Map<string, { purchaseId: string | null; status: "open" | "complete" | "expired" }>;
  stop(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const state: Omit<StripeStandIn, "url" | "stop"> = { requests: [], mode: "ok", sessions: new Map() };
  // Stripe answers a repeated idempotency key with the first answer.
  const answered = new Map<string, unknown>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      const request = { method: req.method ?? "", path: req.url ?? "", form: new URLSearchParams(body), idempotencyKey };
      state.requests.push(request);
      if (state.mode === "hang") return;
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${randomBytes(6).toString("hex")}` });
        res.end(JSON.stringify(payload));
      };
      if (state.mode === "fail") return reply(500, { error: { type: "api_error", message: "Stand-in failure" } });
      if (idempotencyKey && answered.has(idempotencyKey)) return reply(200, answered.get(idempotencyKey));
      let payload: unknown;
      if (req.method === "POST" && request.path === "/v1/checkout/sessions") {
        const id = `cs_test_${randomBytes(12).toString("hex")}`;
        state.sessions.set(id, { purchaseId: request.form.get("client_reference_id"), status: "open" });
        payload = { id, object: "checkout.session", url: `https://checkout.stripe.test/pay/${id}`, payment_status: "unpaid" };
      } else if (req.method === "POST" && /^\/v1\/checkout\/sessions\/[^/]+\/expire$/.test(request.path)) {
        const id = request.path.split("/")[4]!;
        const session = state.sessions.get(id);
        // Stripe expires only an open session.
        if (session?.status !== "open") {
          return reply(400, { error: { type: "invalid_request_error", message: `Only Checkout Sessions with a status in [open] can be expired. This Checkout Session has a status of ${session?.status ?? "unknown"}.` } });
        }
        session.status = "expired";
        payload = { id, object: "checkout.session", status: "expired", payment_status: "unpaid", url: null };
      } else if (req.method === "POST" && request.path === "/v1/refunds") {
        payload = {
          id: `re_${randomBytes(12).toString("hex")}`,
          object: "refund",
          amount: Number(request.form.get("amount")),
          payment_intent: request.form.get("payment_intent"),
          status: "succeeded",
        };
      } else {
        return reply(404, { error: { type: "invalid_request_error", message: `No stand-in for ${req.method} ${request.path}` } });
      }
      if (idempotencyKey) answered.set(idempotencyKey, payload);
      reply(200, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Delivers a Stripe event of `type` about the Checkout Session `session` to the app's webhook, signed with `secret`. */
export function deliverStripeEvent(app: TestApp, secret: string, type: string, session: Record<string, unknown>): Promise<Response> {
  const payload = JSON.stringify({ id: `evt_${randomBytes(12).toString("hex")}`, object: "event", type, data: { object: { object: "checkout.session", ...session } } });
  const signature = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({ payload, secret });
  return app.request("/api/webhooks/stripe", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
}
