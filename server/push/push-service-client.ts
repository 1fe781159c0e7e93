/**
 * Sends one Web Push message to one push service (issue 34). `web-push` makes the request (its
 * `generateRequestDetails`: the payload encrypted as aes128gcm for the subscription's keys, the
 * VAPID JWT signed with our private key, TTL and Urgency), and our own HTTP client sends it
 * over keep-alive connections pooled per push service, so that a lead alert to thousands of
 * devices of one vendor does not open a connection for each. It connects only to public
 * addresses (issue 45, finding 1): a name's are checked by the connection's own look-up, an
 * address in the endpoint before connecting; only an address the tests name for their push
 * service (PUSH_SERVICE_TEST_HOSTS) is exempt.
 */
import https from "node:https";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import webpush from "web-push";
import type { VapidKeys } from "../config.ts";
import { isPublicAddress, NotPublicAddressError, publicAddressLookup } from "../security/outbound-address.ts";

export interface PushPayload {
  /** A short title and body, text only: the service worker shows them as a notification. */
  title: string;
  body: string;
  /** A path on this site that a click on the notification opens. */
  link: string;
}

interface PushOptions {
  /** `high` for what a person acts on at once (new messages, instant lead alerts). */
  urgency: "high" | "normal";
  /** How long the push service keeps it for a device that is off, in seconds. */
  ttlSeconds: number;
}

interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushClient {
  /** The push service's HTTP status (201 when taken; 404 or 410 when the subscription is gone). */
  send(target: PushTarget, payload: PushPayload, options: PushOptions): Promise<number>;
  close(): void;
}

/** Payloads stay far below the 4 KB push services take, whatever a title says. */
const MAX_TEXT = 200;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** A VAPID JWT ends 12 hours on (web-push's default); one is signed per push service and reused for 10 minutes. */
const VAPID_EXPIRY_SECONDS = 12 * 60 * 60;
const VAPID_REUSE_SECONDS = 10 * 60;

/**
 * `extraCa`: one more certificate authority to trust (the tests' own push service has a
 * certificate of its own); every public one is trusted as usual. `testHosts`: the addresses
 * among them may be connected to whatever they are (a name never: its answer could change).
 */
export function createPushClient(
  keys: VapidKeys,
  { extraCa, timeoutMs = 10_000, testHosts = [] }: { extraCa?: string; timeoutMs?: number; testHosts?: readonly string[] } = {},
): PushClient {
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets: 64,
    timeout: timeoutMs,
    lookup: publicAddressLookup,
    ...(extraCa ? { ca: [...rootCertificates, extraCa] } : {}),
  });
  /** An endpoint's host that is an address is connected to without a look-up: checked here. */
  const refusedAddress = (url: URL): Error | null => {
    const address = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(address) === 0 || isPublicAddress(address) || testHosts.includes(url.hostname)) return null;
    return new NotPublicAddressError(url.hostname, address);
  };
  // Signing is most of web-push's own work per push (the key turned into PEM, then ES256): a
  // fan-out to thousands of devices of one push service signs once (decision 0052).
  const signed = new Map<string, { authorization: string; until: number }>();
  const authorization = (audience: string) => {
    const now = Math.floor(Date.now() / 1000);
    const kept = signed.get(audience);
    if (kept && kept.until > now) return kept.authorization;
    const headers = webpush.getVapidHeaders(audience, keys.subject, keys.publicKey, keys.privateKey, "aes128gcm", now + VAPID_EXPIRY_SECONDS);
    signed.set(audience, { authorization: headers.Authorization, until: now + VAPID_REUSE_SECONDS });
    return headers.Authorization;
  };
  return {
    send(target, payload, options) {
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify({ title: clip(payload.title), body: clip(payload.body), link: payload.link }),
        {
          // Our own VAPID header (signed above) and no `vapidDetails`, so web-push signs none
          // (we never call its global `setVapidDetails` either).
          headers: { Authorization: authorization(new URL(target.endpoint).origin) },
          TTL: options.ttlSeconds,
          urgency: options.urgency,
          contentEncoding: "aes128gcm",
        },
      );
      const url = new URL(details.endpoint);
      if (url.protocol !== "https:") return Promise.reject(new Error(`not an https push service: ${url.origin}`));
      const refused = refusedAddress(url);
      if (refused) return Promise.reject(refused);
      return new Promise<number>((resolve, reject) => {
        const request = https.request(url, { method: details.method, headers: details.headers, agent, timeout: timeoutMs }, (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("error", reject);
        });
        request.on("timeout", () => request.destroy(new Error(`the push service did not answer within ${timeoutMs} ms`)));
        request.on("error", reject);
        request.end(details.body ?? undefined);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
