/**
 * A push service for the tests (issue 34), standing in for a browser vendor's: an https server
 * with the test certificate (tls-certificate.ts) that takes pushes as Web Push says
 * (RFC 8030, 8291, 8292). For each push it checks the VAPID JWT against the app's public key
 * and decrypts the payload (aes128gcm) with the subscription's private key, which
 * `browserSubscription` makes as a browser would (a P-256 key pair and a 16-byte secret).
 * A subscription can be set to answer 404 or 410, as a push service does for one that is gone.
 */
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { testCertificate } from "./tls-certificate.ts";

export interface BrowserSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The browser's half: its private key, to decrypt what is pushed to it. */
  ecdh: ECDH;
  authSecret: Buffer;
}

/** A subscription as a browser's pushManager makes one, for `endpoint`. */
export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return { endpoint, p256dh: ecdh.getPublicKey("base64url"), auth: authSecret.toString("base64url"), ecdh, authSecret };
}

/**
 * The third attack's push endpoints (issue 45, finding 1): this machine, the cloud's metadata
 * service, the private network, each a port the server would have connected to.
 */
export const SSRF_PUSH_ENDPOINTS = [
  "https://127.0.0.1:9444/push",
  "https://169.254.169.254/latest/meta-data/",
  "https://10.0.0.1/",
  "https://[::1]:9445/",
  "https://localhost:4100/push",
] as const;

/** The fields the Turn on button posts for a subscription. */
export const subscriptionForm = (s: BrowserSubscription) => ({ intent: "push-on", endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth });

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 (aes128gcm, one record): the plain text of a push to `subscription`. */
export function decryptPush(body: Buffer, subscription: BrowserSubscription): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const shared = subscription.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), subscription.ecdh.getPublicKey(), serverKey, Buffer.from([1])]);
  const ikm = hmac(hmac(subscription.authSecret, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const key = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then padding zeros.
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292: the VAPID JWT is signed by `publicKey`'s private key, for this origin, not expired; what is wrong, or null. */
export function vapidProblem(authorization: string | undefined, publicKey: string, audience: string): string | null {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) return `no VAPID authorization: ${authorization}`;
  const [, token = "", key = ""] = match;
  if (key !== publicKey) return "another application server's key";
  const [header = "", payload = "", signature = ""] = token.split(".");
  const raw = Buffer.from(publicKey, "base64url");
  const jwk = { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33, 65).toString("base64url") };
  const valid = verify("sha256", Buffer.from(`${header}.${payload}`), { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!valid) return "a bad signature";
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== audience) return `audience ${claims.aud}`;
  if (!claims.exp || claims.exp * 1000 < Date.now()) return "expired";
  if (!claims.sub) return "no subject";
  return null;
}

export interface ReceivedPush {
  subscription: BrowserSubscription;
  message: { title: string; body: string; link: string };
  ttl: string | undefined;
  urgency: string | undefined;
  encoding: string | undefined;
}

export interface PushService {
  origin: string;
  /** A new subscription on this service, as a browser would make it; at `origin` when given (another name of this service). */
  subscribe(origin?: string): BrowserSubscription;
  /** How many connections the service accepted so far: whether anyone connected at all. */
  connections(): number;
  /** Every push received and accepted, in order. */
  received: ReceivedPush[];
  /** Pushes refused (bad VAPID, undecryptable): what was wrong. */
  refused: string[];
  /** Makes the service answer this status (404, 410, 503) for a subscription from now on; 0: as usual again. */
  answer(subscription: BrowserSubscription, status: number): void;
  close(): Promise<void>;
}

export async function startPushService(vapidPublicKey: string): Promise<PushService> {
  const subscriptions = new Map<string, BrowserSubscription>();
  const statuses = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let origin = "";
  const server: Server = createServer(testCertificate(), (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const subscription = subscriptions.get(request.url ?? "");
      if (!subscription) return void response.writeHead(404).end();
      const status = statuses.get(request.url ?? "");
      if (status) return void response.writeHead(status).end();
      const problem = vapidProblem(request.headers.authorization, vapidPublicKey, origin);
      if (problem) {
        refused.push(problem);
        return void response.writeHead(403).end();
      }
      try {
        const message = JSON.parse(decryptPush(Buffer.concat(chunks), subscription)) as ReceivedPush["message"];
        received.push({
          subscription,
          message,
          ttl: request.headers.ttl as string | undefined,
          urgency: request.headers.urgency as string | undefined,
          encoding: request.headers["content-encoding"],
        });
        response.writeHead(201).end();
      } catch (error) {
        refused.push(`undecryptable: ${(error as Error).message}`);
        response.writeHead(400).end();
      }
    });
  });
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    subscribe(at = origin) {
      const subscription = browserSubscription(`${at}/push/${randomUUID()}`);
      subscriptions.set(new URL(subscription.endpoint).pathname, subscription);
      return subscription;
    },
    connections: () => connections,
    received,
    refused,
    answer: (subscription, status) => statuses.set(new URL(subscription.endpoint).pathname, status),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
