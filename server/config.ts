/**
 * Configuration from environment variables, parsed once at start-up. A missing or bad
 * value stops the server with a message that names the variable (see .env.example).
 *
 * Local mode (NODE_ENV not "production") runs with no settings at all: embedded database,
 * demo data, test checkout, mail outbox, an auth secret of its own under DATA_DIR. Production
 * requires real settings and refuses the local conveniences unless they are enabled explicitly.
 */
import { createECDH, randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ISSUE_DEADLINE_DEFAULTS } from "#core/lead-issues.ts";
import { DEFAULT_DAILY_CAP_PER_COUNTRY, DEFAULT_PHONE_COUNTRY } from "#core/phone-verification.ts";
import { type CountryCode, isSupportedCountry } from "libphonenumber-js/max";
import { isTimeZone } from "#core/zoned-dates.ts";
import proxyaddr from "proxy-addr";

/** Which proxies may name the client: none, the nearest `hops`, or those at these addresses/CIDRs. */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

/**
 * TRUST_PROXY's value (who reads it: server/security/client-address.ts): empty or "false" for off, a whole number of hops ("0" is off), or a
 * comma-separated list of addresses and CIDRs (proxy-addr's names loopback, linklocal and
 * uniquelocal too). Throws with a message for anything else.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? "";
  if (text === "" || text === "false") return false;
  if (/^\d+$/.test(text)) return Number(text) === 0 ? false : { hops: Number(text) };
  // "true" would trust every hop: the leftmost entry, which the client writes, would be believed.
  if (text === "true") throw new Error('"true" would believe any client; give the number of proxies or their addresses');
  const addresses = text.split(",").map((entry) => entry.trim()).filter(Boolean);
  proxyaddr.compile(addresses); // throws TypeError naming an entry it cannot read
  return { addresses };
}

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();
const optionalUrl = optionalString.pipe(z.url({ protocol: /^https?$/ }).optional());
const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1"));

/** A host as a URL's `hostname` writes it, alone: no port, path or credentials. */
function isBareHost(entry: string): boolean {
  try {
    return new URL(`https://${entry}/`).hostname === entry;
  } catch {
    return false;
  }
}


const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Default by mode (below): loopback in local mode, where /dev/mail shows password-reset links.
  HOST: optionalString,
  PUBLIC_URL: optionalUrl,
  // The proxies in front of the server that may name the client (server/security/client-address.ts).
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  SEED_DEMO_DATA: booleanFlag,
  BETTER_AUTH_SECRET: optionalString.pipe(z.string().min(32).optional()),
  PAYMENTS_PROVIDER: z.enum(["stripe", "test"]).optional(),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl,
  MAIL_TRANSPORT: z.enum(["smtp", "outbox"]).optional(),
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().min(3).default("Digs & Gigs <no-reply@digsandgigs.local>"),
  SUPPORT_EMAIL: z.email().default("support@digsandgigs.local"),
  SUPPORT_PHONE: z.string().trim().min(3).default("+1 (555) 010-0100"),
  LEGAL_EMAIL: z.email().default("legal@digsandgigs.local"),
  PRIVACY_EMAIL: z.email().default("privacy@digsandgigs.local"),
  BUSINESS_ADDRESS: z.string().trim().min(3).default("Digs & Gigs, 100 Example Street, Suite 200, Springfield, USA"),
  // 720 hours = 30 days, the privacy promise; 0 purges at the next run (tests).
  ACCOUNT_PURGE_DELAY_HOURS: z.coerce.number().min(0).max(720).default(720),
  // Lead issues (docs/decisions/0020-refund-deadlines.md): the client's time to answer a report
  // before it is approved automatically, and how long after a purchase a report may be made.
  LEAD_ISSUE_RESPONSE_HOURS: z.coerce.number().int().min(1).max(720).default(ISSUE_DEADLINE_DEFAULTS.responseHours),
  LEAD_ISSUE_REPORT_DAYS: z.coerce.number().int().min(1).max(365).default(ISSUE_DEADLINE_DEFAULTS.reportDays),
  // The daily lead-alert digest (server/alerts/digest.ts): its hour, in the server's time zone.
  DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  // An IANA time zone ("Europe/Paris"); unset: the process's TZ, else UTC.
  DIGEST_TIME_ZONE: optionalString.pipe(z.string().refine(isTimeZone, "an IANA time zone such as Europe/Paris").optional()),
  // The zone times are written in for a signed-out reader and an account that has told none
  // (server/reader-time.ts); unset: the server's time zone above.
  DEFAULT_TIME_ZONE: optionalString.pipe(z.string().refine(isTimeZone, "an IANA time zone such as America/Chicago").optional()),
  // Signed-out views of public pages kept this long (server/page-cache.ts); 0 turns it off.
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  // Seconds between a live stream's heartbeats (server/live/hub.ts), each also a look at its session.
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(25),
  // Live streams one process holds at most, every account together (server/live/hub.ts; decision 0055).
  LIVE_MAX_STREAMS: z.coerce.number().int().min(1).max(100_000).default(2_000),
  // Of them, from one network (/24, /64; server/security/network.ts) at most: issue 45.
  LIVE_MAX_STREAMS_PER_NETWORK: z.coerce.number().int().min(1).max(100_000).default(200),
  // Local mode leaves loopback out of the per-network and daily sign-up caps (server/security/network.ts); true counts it (their tests).
  NETWORK_LIMITS_ON_LOOPBACK: booleanFlag,
  // The bus's heartbeat (server/bus.ts, decision 0056): how often each process checks that its
  // LISTEN connection still hears, and how long it waits before it takes it for dead.
  BUS_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  BUS_HEARTBEAT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  // The bearer token that opens GET /metrics (server/metrics.ts); unset: open in local mode, 404 in production.
  METRICS_TOKEN: optionalString.pipe(z.string().min(16).optional()),
  // Sign-in providers: a client id and secret enable one; a discovery URL overrides its endpoints.
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_DISCOVERY_URL: optionalUrl,
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_DISCOVERY_URL: optionalUrl,
  LINKEDIN_CLIENT_ID: optionalString,
  LINKEDIN_CLIENT_SECRET: optionalString,
  LINKEDIN_DISCOVERY_URL: optionalUrl,
  // An S3-compatible object store for uploads instead of DATA_DIR/uploads (see S3_VARIABLES).
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "a bucket name: 3-63 lower-case letters, digits, dots and hyphens")
      .optional(),
  ),
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanFlag,
  // Web Push (server/push/): the VAPID key pair (base64url) and who the push services may
  // write to; unset in production: no pushes (made under DATA_DIR in local mode).
  VAPID_PUBLIC_KEY: optionalString.pipe(z.base64url().refine((k) => Buffer.from(k, "base64url").length === 65, "a P-256 public key (65 bytes, base64url)").optional()),
  VAPID_PRIVATE_KEY: optionalString.pipe(z.base64url().refine((k) => Buffer.from(k, "base64url").length === 32, "a P-256 private key (32 bytes, base64url)").optional()),
  // Reply by e-mail (server/conversations/inbound/): the domain of the reply addresses, and the
  // inbound SMTP listener's port and address (decision 0048).
  INBOUND_DOMAIN: optionalString.pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, "a domain name such as reply.example.com").optional()),
  INBOUND_SMTP_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
  INBOUND_SMTP_HOST: optionalString,
  // STARTTLS on the listener: paths of a PEM private key and certificate chain (both or neither).
  INBOUND_TLS_KEY: optionalString,
  INBOUND_TLS_CERT: optionalString,
  // The relays whose Received header names the real sender (addresses and CIDRs, comma-separated).
  INBOUND_TRUSTED_RELAYS: optionalString,
  // The tests' own push service (tests/support/push-service.ts): host names or addresses
  // (`127.0.0.1`, `[::1]`), comma-separated, taken as push services on any port besides the
  // browser vendors' (core/push-schemas.ts); an address named here is connected to even when
  // it is loopback or private. Refused in production.
  PUSH_SERVICE_TEST_HOSTS: optionalString.pipe(
    z
      .string()
      .transform((text) => text.split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean))
      .refine((hosts) => hosts.every(isBareHost), "host names or addresses ([::1] for IPv6), comma-separated, without ports")
      .optional(),
  ),
  // Verified phones (issue 49, server/phones/): the country a number typed without +country is
  // read in (ISO 3166 alpha-2), and the provider of text messages: "sns" (Amazon SNS; its region,
  // keys or the SDK's own chain, and an endpoint of one's own for tests) or "outbox" (local mode's
  // /dev/sms; refused in production). Unset in production: phone verification is off.
  DEFAULT_PHONE_COUNTRY: optionalString.pipe(z.string().refine((c) => isSupportedCountry(c), "a country code such as US or GB").optional()),
  SMS_PROVIDER: z.enum(["sns", "outbox"]).optional(),
  SMS_SNS_REGION: optionalString,
  SMS_SNS_ACCESS_KEY_ID: optionalString,
  SMS_SNS_SECRET_ACCESS_KEY: optionalString,
  SMS_SNS_ENDPOINT: optionalUrl,
  // The countries texts may go to (ISO codes, comma-separated); unset: DEFAULT_PHONE_COUNTRY only.
  SMS_COUNTRIES: optionalString.pipe(
    z
      .string()
      .transform((text) => text.split(",").map((entry) => entry.trim().toUpperCase()).filter(Boolean))
      .refine((codes) => codes.length > 0 && codes.every((c) => isSupportedCountry(c)), "country codes such as US,CA")
      .optional(),
  ),
  // Codes sent a day to one of those countries, every account together (toll fraud's cap).
  SMS_DAILY_CAP_PER_COUNTRY: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_DAILY_CAP_PER_COUNTRY),
  VAPID_SUBJECT: optionalString.pipe(z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "a mailto: or https: address").optional()),
});

/** The object store's settings: production takes all five or none. */
const S3_VARIABLES = ["S3_ENDPOINT", "S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
/** The region when none is given outside production: the one S3-compatible servers expect. */
const DEFAULT_S3_REGION = "us-east-1";

export const OAUTH_PROVIDERS = ["google", "github", "linkedin"] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number];
interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  /** An OpenID Connect discovery document that replaces the provider's usual endpoints. */
  discoveryUrl?: string;
}

/** An S3-compatible object store (server/storage/s3-storage.ts; docs/decisions/0015-object-storage.md). */
export interface S3Config {
  /** Unset: Amazon S3 itself, in `region`. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: what MinIO, Ceph and s3rver need. */
  forcePathStyle: boolean;
  /** Unset (outside production only): the AWS SDK's own chain (AWS_* variables, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export interface Config {
  mode: "local" | "production";
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: string;
  /** Which proxies' X-Forwarded-For names the client; false: the socket's address only. */
  trustProxy: TrustProxy;
  /** Cookies only over HTTPS: PUBLIC_URL is https, or production. Never the scheme of the hop from a proxy. */
  secureCookies: boolean;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
  dataDir: string;
  seedDemoData: boolean;
  authSecret: string;
  payments:
    | { provider: "stripe"; secretKey: string; webhookSecret: string; apiUrl?: string }
    | { provider: "test" };
  mail: { transport: "smtp"; smtpUrl: string } | { transport: "outbox" };
  mailFrom: string;
  supportEmail: string;
  supportPhone: string;
  legalEmail: string;
  privacyEmail: string;
  businessAddress: string;
  /** How long after a deletion request the purge removes the account's personal data. */
  accountPurgeDelayHours: number;
  /** How long the client has to approve or reject a reported issue before it is approved automatically. */
  leadIssueResponseHours: number;
  /** How many days after a purchase the digger may report an issue on it. */
  leadIssueReportDays: number;
  /** The daily lead-alert digest goes at this hour (0-23) of `timeZone`. */
  digestHour: number;
  /** The server's time zone (IANA): the digest's hour and its day. */
  timeZone: string;
  /** The zone a reader without one of their own reads times in (issue 47). */
  defaultTimeZone: string;
  /** How long a signed-out view of a public page may be served again; 0 = never. */
  pageCacheSeconds: number;
  /** Seconds between a live stream's heartbeats; at each, a signed-out or suspended session's stream ends. */
  liveHeartbeatSeconds: number;
  /** Open live streams this process holds at most, all accounts together; past it the largest holder's oldest is closed. */
  liveMaxStreams: number;
  /** Open live streams this process holds at most from one network (/24, /64); past it the network's largest account's oldest is closed. */
  liveMaxStreamsPerNetwork: number;
  /** Local mode: whether loopback counts in the per-network and daily sign-up caps (always in production). */
  networkLimitsOnLoopback: boolean;
  /** Seconds between the bus's heartbeats, and how long one may go unheard before the bus stops trusting its LISTEN connection. */
  busHeartbeatSeconds: number;
  busHeartbeatTimeoutSeconds: number;
  /** The bearer token `/metrics` asks for; without one it is open in local mode and 404 in production. */
  metricsToken?: string;
  /** Only the sign-in providers whose client id and secret are both set. */
  oauth: Partial<Record<OAuthProviderId, OAuthProviderConfig>>;
  /** Where uploads live: DATA_DIR/uploads, or an object store when S3_BUCKET and the rest are set. */
  storage: { kind: "local"; dir: string } | ({ kind: "s3" } & S3Config);
  /** Web Push's VAPID keys (server/push/); null: no pushes, and /account hides them. */
  push: VapidKeys | null;
  /** Push services taken besides the vendors' (PUSH_SERVICE_TEST_HOSTS; never in production): the tests' own. */
  pushServiceTestHosts: string[];
  /** Reply by e-mail (decision 0048); null: the notifications carry no Reply-To and nothing listens. */
  inbound: InboundConfig | null;
  /** The country a phone number typed without +country is read in (issue 49). */
  defaultPhoneCountry: CountryCode;
  /** Who sends text messages (server/phones/sms/); null: phone verification is off and no tick is shown. */
  sms: SmsConfig | null;
  /** The countries texts may go to (ISO codes). */
  smsCountries: string[];
  /** Codes sent a day to one country, every account together. */
  smsDailyCapPerCountry: number;
}

export type SmsConfig =
  | { provider: "outbox" }
  | {
      provider: "sns";
      region: string;
      /** An endpoint of one's own (the tests' SNS peer); unset: Amazon's. */
      endpoint?: string;
      /** Unset: the AWS SDK's own chain (AWS_* variables, instance roles). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

interface InboundConfig {
  /** The domain of the reply addresses `reply+{token}@{domain}`. */
  domain: string;
  /** Where the inbound SMTP listener listens; null: this deployment runs none (another one receives the replies). */
  smtp: { host: string; port: number; optional: boolean; tls: InboundTls | null; trustedRelays: string[] } | null;
}

/** PEM files of the inbound listener's STARTTLS (read when it starts); null: plain SMTP only. */
export interface InboundTls {
  keyPath: string;
  certPath: string;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: address the push services may write to (VAPID_SUBJECT, else SUPPORT_EMAIL). */
  subject: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Test runs (NODE_ENV=test) keep a fixed secret: they make many configurations in one process,
 * most without a data directory of their own (nothing may be written to ./data), and the
 * processes of one run share databases and sessions. Nothing real is protected there.
 */
const TEST_AUTH_SECRET = "test-mode-secret-do-not-use-anywhere-else-000";
/** Likewise for Web Push: one key pair for every test process (nothing real is pushed). */
const TEST_VAPID_KEYS = {
  publicKey: "BAhWiI1Z9McvNqundxvrIEP6vqEcAuelUi0Mimb6y9acWi33TSWdwjPn2yUPRYBSh4LLyxooxBl81yl3KYMiTNM",
  privateKey: "6nlUph5GsHftYJZ8KNa468BW_dEimLAdX6utFqEmW30",
};
const MIN_SECRET_LENGTH = 32;

/**
 * Local mode's secrets, so that no two installs share one: made at random on the first start
 * and kept under DATA_DIR (auth-secret, vapid-keys; 0600). Each is written whole to a
 * temporary file and linked into place, which fails if the file is already there: racing starts all read the winner's.
 */
function localSecret(file: string, make: () => string): string {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(temp, `${make()}\n`, { mode: 0o600 });
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(temp, { force: true });
    }
  }
  return readFileSync(file, "utf8").trim();
}

/** A new VAPID key pair (P-256), as "public.private" in base64url: what DATA_DIR/vapid-keys keeps. */
function newVapidKeys(): string {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const key = ecdh.getPrivateKey();
  // 32 bytes always: the key is a number, and Node drops its leading zero bytes.
  return `${ecdh.getPublicKey("base64url")}.${Buffer.concat([Buffer.alloc(32 - key.length), key]).toString("base64url")}`;
}

/**
 * Web Push's keys: the environment's (both keys or neither); else in tests a fixed pair, in
 * local mode a pair made on the first start and kept in DATA_DIR/vapid-keys like the auth
 * secret; in production none (pushes off).
 */
function vapidKeys(e: z.infer<typeof envSchema>, dataDir: string, problems: string[]): VapidKeys | null {
  const subject = e.VAPID_SUBJECT ?? `mailto:${e.SUPPORT_EMAIL}`;
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    problems.push(e.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY: required with VAPID_PUBLIC_KEY" : "VAPID_PUBLIC_KEY: required with VAPID_PRIVATE_KEY");
    return null;
  }
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY) return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject };
  if (e.NODE_ENV === "production") return null;
  if (e.NODE_ENV === "test") return { ...TEST_VAPID_KEYS, subject };
  const [publicKey = "", privateKey = ""] = localSecret(path.join(dataDir, "vapid-keys"), newVapidKeys).split(".");
  return { publicKey, privateKey, subject };
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const problems: string[] = [];
  const requireInProduction = (name: keyof typeof e, why: string) => {
    if (production && e[name] === undefined) problems.push(`${name}: required in production (${why})`);
  };
  requireInProduction("DATABASE_URL", "the embedded database is for local use");
  requireInProduction("BETTER_AUTH_SECRET", "at least 32 random characters that sign sessions");
  requireInProduction("PUBLIC_URL", "the site's public address, used in links and redirects");

  const paymentsProvider = e.PAYMENTS_PROVIDER ?? (e.STRIPE_SECRET_KEY ? "stripe" : production ? undefined : "test");
  if (paymentsProvider === undefined) {
    problems.push("STRIPE_SECRET_KEY: required in production (or set PAYMENTS_PROVIDER=test explicitly)");
  } else if (paymentsProvider === "stripe") {
    if (!e.STRIPE_SECRET_KEY) problems.push("STRIPE_SECRET_KEY: required when PAYMENTS_PROVIDER=stripe");
    if (!e.STRIPE_WEBHOOK_SECRET) problems.push("STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY");
  }

  const mailTransport = e.MAIL_TRANSPORT ?? (e.SMTP_URL ? "smtp" : production ? undefined : "outbox");
  if (mailTransport === undefined) {
    problems.push("SMTP_URL: required in production (or set MAIL_TRANSPORT=outbox explicitly)");
  } else if (mailTransport === "smtp" && !e.SMTP_URL) {
    problems.push("SMTP_URL: required when MAIL_TRANSPORT=smtp");
  }
  let trustProxy: TrustProxy = false;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (error) {
    problems.push(`TRUST_PROXY: ${(error as Error).message}`);
  }
  const oauth: Config["oauth"] = {};
  for (const provider of OAUTH_PROVIDERS) {
    const prefix = provider.toUpperCase() as "GOOGLE" | "GITHUB" | "LINKEDIN";
    const clientId = e[`${prefix}_CLIENT_ID`];
    const clientSecret = e[`${prefix}_CLIENT_SECRET`];
    if (Boolean(clientId) !== Boolean(clientSecret)) {
      problems.push(`${prefix}_CLIENT_${clientId ? "SECRET" : "ID"}: required with ${prefix}_CLIENT_${clientId ? "ID" : "SECRET"}`);
    } else if (clientId && clientSecret) {
      oauth[provider] = { clientId, clientSecret, discoveryUrl: e[`${prefix}_DISCOVERY_URL`] };
    }
  }
  const s3Set = [...S3_VARIABLES, "S3_FORCE_PATH_STYLE" as const].filter((name) => e[name] !== undefined);
  if (s3Set.length > 0) {
    for (const name of production ? S3_VARIABLES : ["S3_BUCKET" as const]) {
      if (e[name] === undefined) {
        problems.push(`${name}: required with ${s3Set.join(", ")}${production ? " (in production all five S3_* variables or none)" : ""}`);
      }
    }
    if (!production && Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
      const [missing, given] = e.S3_ACCESS_KEY_ID ? ["S3_SECRET_ACCESS_KEY", "S3_ACCESS_KEY_ID"] : ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
      problems.push(`${missing}: required with ${given}`);
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const push = vapidKeys(e, dataDir, problems);
  if (production && e.PUSH_SERVICE_TEST_HOSTS) {
    problems.push("PUSH_SERVICE_TEST_HOSTS: not allowed in production (production sends pushes only to the browser vendors' push services)");
  }
  const inbound = inboundConfig(e, problems);
  const sms = smsConfig(e, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const secretFile = path.join(dataDir, "auth-secret");
  const authSecret = e.BETTER_AUTH_SECRET ?? (e.NODE_ENV === "test" ? TEST_AUTH_SECRET : localSecret(secretFile, () => randomBytes(32).toString("base64url")));
  if (authSecret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError([`${secretFile}: not a usable secret; delete it and a new one is made at the next start`]);
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  const serverZone = e.DIGEST_TIME_ZONE ?? (env.TZ && isTimeZone(env.TZ) ? env.TZ : "UTC");
  return {
    mode: production ? "production" : "local",
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST ?? (production ? "0.0.0.0" : "127.0.0.1"),
    publicUrl,
    trustProxy,
    secureCookies: production || publicUrl.startsWith("https://"),
    logLevel: e.LOG_LEVEL,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    dataDir,
    seedDemoData: e.SEED_DEMO_DATA ?? (!production && !e.DATABASE_URL),
    authSecret,
    payments:
      paymentsProvider === "stripe"
        ? { provider: "stripe", secretKey: e.STRIPE_SECRET_KEY!, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, apiUrl: e.STRIPE_API_URL }
        : { provider: "test" },
    mail: mailTransport === "smtp" ? { transport: "smtp", smtpUrl: e.SMTP_URL! } : { transport: "outbox" },
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    supportPhone: e.SUPPORT_PHONE,
    legalEmail: e.LEGAL_EMAIL,
    privacyEmail: e.PRIVACY_EMAIL,
    businessAddress: e.BUSINESS_ADDRESS,
    accountPurgeDelayHours: e.ACCOUNT_PURGE_DELAY_HOURS,
    leadIssueResponseHours: e.LEAD_ISSUE_RESPONSE_HOURS,
    leadIssueReportDays: e.LEAD_ISSUE_REPORT_DAYS,
    digestHour: e.DIGEST_HOUR,
    timeZone: serverZone,
    defaultTimeZone: e.DEFAULT_TIME_ZONE ?? serverZone,
    // Off in local mode, where tests and developers change the database behind the server's back.
    pageCacheSeconds: e.PAGE_CACHE_SECONDS ?? (production ? 10 : 0),
    liveHeartbeatSeconds: e.LIVE_HEARTBEAT_SECONDS,
    liveMaxStreams: e.LIVE_MAX_STREAMS,
    liveMaxStreamsPerNetwork: e.LIVE_MAX_STREAMS_PER_NETWORK,
    networkLimitsOnLoopback: e.NETWORK_LIMITS_ON_LOOPBACK ?? false,
    busHeartbeatSeconds: e.BUS_HEARTBEAT_SECONDS,
    busHeartbeatTimeoutSeconds: e.BUS_HEARTBEAT_TIMEOUT_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    oauth,
    storage: e.S3_BUCKET ? { kind: "s3", ...s3Config(e, e.S3_BUCKET) } : { kind: "local", dir: path.join(dataDir, "uploads") },
    push,
    pushServiceTestHosts: e.PUSH_SERVICE_TEST_HOSTS ?? [],
    inbound,
    defaultPhoneCountry: (e.DEFAULT_PHONE_COUNTRY ?? DEFAULT_PHONE_COUNTRY) as CountryCode,
    sms,
    smsCountries: e.SMS_COUNTRIES ?? [e.DEFAULT_PHONE_COUNTRY ?? DEFAULT_PHONE_COUNTRY],
    smsDailyCapPerCountry: e.SMS_DAILY_CAP_PER_COUNTRY,
  };
}

/**
 * Text messages (issue 49): Amazon SNS with SMS_PROVIDER=sns, else local mode's outbox
 * (/dev/sms). Production without SMS_PROVIDER has none: phone verification is off.
 */
function smsConfig(e: z.infer<typeof envSchema>, problems: string[]): SmsConfig | null {
  const production = e.NODE_ENV === "production";
  const provider = e.SMS_PROVIDER ?? (production ? undefined : "outbox");
  if (provider === undefined) return null;
  if (provider === "outbox") {
    if (production) problems.push("SMS_PROVIDER: outbox is for local mode only (set sns, or leave it unset to turn phone verification off)");
    return { provider: "outbox" };
  }
  if (!e.SMS_SNS_REGION) problems.push("SMS_SNS_REGION: required when SMS_PROVIDER=sns");
  // Codes travel to it: production sends them over TLS only (an endpoint of one's own is for tests, or a private https one).
  if (production && e.SMS_SNS_ENDPOINT && !e.SMS_SNS_ENDPOINT.startsWith("https://")) problems.push("SMS_SNS_ENDPOINT: must be https in production");
  if (Boolean(e.SMS_SNS_ACCESS_KEY_ID) !== Boolean(e.SMS_SNS_SECRET_ACCESS_KEY)) {
    problems.push(e.SMS_SNS_ACCESS_KEY_ID ? "SMS_SNS_SECRET_ACCESS_KEY: required with SMS_SNS_ACCESS_KEY_ID" : "SMS_SNS_ACCESS_KEY_ID: required with SMS_SNS_SECRET_ACCESS_KEY");
  }
  return {
    provider: "sns",
    region: e.SMS_SNS_REGION ?? "",
    endpoint: e.SMS_SNS_ENDPOINT,
    credentials:
      e.SMS_SNS_ACCESS_KEY_ID && e.SMS_SNS_SECRET_ACCESS_KEY
        ? { accessKeyId: e.SMS_SNS_ACCESS_KEY_ID, secretAccessKey: e.SMS_SNS_SECRET_ACCESS_KEY }
        : undefined,
  };
}

/**
 * Reply by e-mail (decision 0048). Local mode: addresses at `reply.localhost` and, under
 * `npm start` (NODE_ENV=development), a listener on 127.0.0.1:2525 that gives way when the port
 * is taken. Elsewhere a listener only on INBOUND_SMTP_PORT, and in production the Reply-To only
 * with INBOUND_DOMAIN (the domain whose MX or relay reaches the listener). INBOUND_TLS_KEY and
 * INBOUND_TLS_CERT make it offer STARTTLS (decision 0055).
 */
function inboundConfig(e: z.infer<typeof envSchema>, problems: string[]): InboundConfig | null {
  const production = e.NODE_ENV === "production";
  if (production && e.INBOUND_SMTP_PORT !== undefined && e.INBOUND_DOMAIN === undefined) {
    problems.push("INBOUND_DOMAIN: required with INBOUND_SMTP_PORT (the domain of the reply addresses)");
  }
  const domain = e.INBOUND_DOMAIN?.toLowerCase() ?? (production ? undefined : "reply.localhost");
  if (!domain) return null;
  const port = e.INBOUND_SMTP_PORT ?? (e.NODE_ENV === "development" ? 2525 : undefined);
  const host = e.INBOUND_SMTP_HOST ?? (production ? "0.0.0.0" : "127.0.0.1");
  if ((e.INBOUND_TLS_KEY === undefined) !== (e.INBOUND_TLS_CERT === undefined)) {
    problems.push(e.INBOUND_TLS_KEY ? "INBOUND_TLS_CERT: required with INBOUND_TLS_KEY" : "INBOUND_TLS_KEY: required with INBOUND_TLS_CERT");
  }
  const tls = e.INBOUND_TLS_KEY && e.INBOUND_TLS_CERT ? { keyPath: e.INBOUND_TLS_KEY, certPath: e.INBOUND_TLS_CERT } : null;
  const trustedRelays = inboundTrustedRelays(e.INBOUND_TRUSTED_RELAYS, problems);
  return { domain, smtp: port === undefined ? null : { host, port, optional: e.INBOUND_SMTP_PORT === undefined, tls, trustedRelays } };
}

/**
 * INBOUND_TRUSTED_RELAYS (issue 45): the relays in front of the listener, whose topmost
 * Received header names the sending server that SPF is checked for, and which the per-address
 * connection cap leaves out. A relay believed without being one would let any client name any
 * sender: proxy-addr, which reads the list, refuses a range of every address (/0).
 */
function inboundTrustedRelays(value: string | undefined, problems: string[]): string[] {
  const relays = (value ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  try {
    proxyaddr.compile(relays); // throws TypeError naming an entry it cannot read
    return relays;
  } catch (error) {
    problems.push(`INBOUND_TRUSTED_RELAYS: ${(error as Error).message}`);
    return [];
  }
}

/**
 * Path style is the default with an endpoint of one's own (MinIO, Ceph, s3rver and the like
 * need it; every S3-compatible server takes it), virtual-hosted style on Amazon's own hosts,
 * where it is the preferred form; S3_FORCE_PATH_STYLE decides either way.
 */
function s3Config(e: z.infer<typeof envSchema>, bucket: string): S3Config {
  const amazonHost = e.S3_ENDPOINT ? new URL(e.S3_ENDPOINT).hostname.endsWith(".amazonaws.com") : true;
  return {
    endpoint: e.S3_ENDPOINT,
    bucket,
    region: e.S3_REGION ?? DEFAULT_S3_REGION,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? !amazonHost,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}
