import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";

// Local mode writes its auth secret under DATA_DIR: never into the repository's ./data here.
const scratch = mkdtempSync(path.join(tmpdir(), "dg-config-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
/** A data directory that does not exist yet, as on a first start. */
const freshDataDir = () => path.join(scratch, `install-${++dirs}`, "data");

/** Every setting production requires. */
const PRODUCTION = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://db.internal/app",
  BETTER_AUTH_SECRET: "x".repeat(32),
  PUBLIC_URL: "https://digsandgigs.example",
  PAYMENTS_PROVIDER: "test",
  MAIL_TRANSPORT: "outbox",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("runs in local mode with no settings: embedded database, demo data, test checkout, outbox", () => {
    expect(loadConfig({ NODE_ENV: "test" }).dataDir).toBe(path.resolve("data"));
    const dataDir = freshDataDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.mode).toBe("local");
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.database.kind).toBe("pglite");
    expect(config.database).toEqual({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    expect(config.seedDemoData).toBe(true);
    expect(config.payments.provider).toBe("test");
    expect(config.mail.transport).toBe("outbox");
  });

  it("switches to PostgreSQL with DATABASE_URL and then seeds no demo data unless asked", () => {
    const DATA_DIR = freshDataDir();
    const config = loadConfig({ DATA_DIR, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://postgres@127.0.0.1:5432/test" });
    expect(config.seedDemoData).toBe(false);
    expect(loadConfig({ DATA_DIR, DATABASE_URL: "postgres://h/db", SEED_DEMO_DATA: "true" }).seedDemoData).toBe(true);
  });

  it("sets the daily digest's hour and time zone: 8 in TZ or UTC by default, an IANA zone or a clear refusal", () => {
    expect(loadConfig({ NODE_ENV: "test" })).toMatchObject({ digestHour: 8, timeZone: "UTC" });
    expect(loadConfig({ NODE_ENV: "test", TZ: "America/Chicago" }).timeZone).toBe("America/Chicago");
    expect(loadConfig({ NODE_ENV: "test", DIGEST_HOUR: "6", DIGEST_TIME_ZONE: "Europe/Paris" })).toMatchObject({ digestHour: 6, timeZone: "Europe/Paris" });
    expect(() => loadConfig({ NODE_ENV: "test", DIGEST_HOUR: "24" })).toThrow(/DIGEST_HOUR/);
    expect(() => loadConfig({ NODE_ENV: "test", DIGEST_TIME_ZONE: "Mars/Olympus" })).toThrow(/DIGEST_TIME_ZONE/);
  });

  it("checks the bus's heartbeat every 5 s and waits 5 s for it by default; whole seconds of at least 1", () => {
    expect(loadConfig({ NODE_ENV: "test" })).toMatchObject({ busHeartbeatSeconds: 5, busHeartbeatTimeoutSeconds: 5 });
    expect(loadConfig({ NODE_ENV: "test", BUS_HEARTBEAT_SECONDS: "2", BUS_HEARTBEAT_TIMEOUT_SECONDS: "3" })).toMatchObject({
      busHeartbeatSeconds: 2,
      busHeartbeatTimeoutSeconds: 3,
    });
    expect(() => loadConfig({ NODE_ENV: "test", BUS_HEARTBEAT_SECONDS: "0" })).toThrow(/BUS_HEARTBEAT_SECONDS/);
    expect(() => loadConfig({ NODE_ENV: "test", BUS_HEARTBEAT_TIMEOUT_SECONDS: "0.5" })).toThrow(/BUS_HEARTBEAT_TIMEOUT_SECONDS/);
  });

  it("names the variable that is malformed", () => {
    expect(problemsOf({ PORT: "not-a-port" }).join("\n")).toMatch(/^PORT: /m);
    expect(problemsOf({ DATABASE_URL: "mysql://x/y" }).join("\n")).toMatch(/^DATABASE_URL: /m);
    expect(problemsOf({ LOG_LEVEL: "loud" }).join("\n")).toMatch(/^LOG_LEVEL: /m);
    expect(problemsOf({ BETTER_AUTH_SECRET: "short" }).join("\n")).toMatch(/^BETTER_AUTH_SECRET: /m);
    expect(problemsOf({ TRUST_PROXY: "true" }).join("\n")).toMatch(/^TRUST_PROXY: /m);
    expect(problemsOf({ TRUST_PROXY: "10.0.0.0/40" }).join("\n")).toMatch(/^TRUST_PROXY: /m);
  });

  it("requires real settings in production and names each missing one", () => {
    const problems = problemsOf({ NODE_ENV: "production" }).join("\n");
    for (const name of ["DATABASE_URL", "BETTER_AUTH_SECRET", "PUBLIC_URL", "STRIPE_SECRET_KEY", "SMTP_URL"]) {
      expect(problems).toContain(`${name}: required in production`);
    }
  });

  it("allows the test checkout and the outbox in production only when enabled explicitly", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      DATABASE_URL: "postgres://db.internal/app",
      BETTER_AUTH_SECRET: "x".repeat(32),
      PUBLIC_URL: "https://digsandgigs.example/",
      PAYMENTS_PROVIDER: "test",
      MAIL_TRANSPORT: "outbox",
    });
    expect(config.mode).toBe("production");
    expect(config.publicUrl).toBe("https://digsandgigs.example");
    expect(config.payments.provider).toBe("test");
    expect(config.mail.transport).toBe("outbox");
    expect(config.seedDemoData).toBe(false);
  });

  it("needs the webhook secret with a Stripe key", () => {
    expect(problemsOf({ STRIPE_SECRET_KEY: "sk_test_123" }).join("\n")).toContain("STRIPE_WEBHOOK_SECRET");
    const config = loadConfig({ DATA_DIR: freshDataDir(), STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_1" });
    expect(config.payments).toEqual({ provider: "stripe", secretKey: "sk_test_123", webhookSecret: "whsec_1" });
  });

  it("makes each local install its own auth secret on the first start and keeps it in DATA_DIR/auth-secret (0600)", () => {
    const dataDir = freshDataDir();
    const first = loadConfig({ DATA_DIR: dataDir }).authSecret;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    const file = path.join(dataDir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).authSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: freshDataDir() }).authSecret).not.toBe(first);
  });

  it("refuses a local auth-secret file that holds no usable secret, and names it", () => {
    const dataDir = freshDataDir();
    loadConfig({ DATA_DIR: dataDir });
    writeFileSync(path.join(dataDir, "auth-secret"), "\n");
    expect(problemsOf({ DATA_DIR: dataDir })).toEqual([`${path.join(dataDir, "auth-secret")}: not a usable secret; delete it and a new one is made at the next start`]);
  });

  it("uses BETTER_AUTH_SECRET when set, and still requires it in production, writing no secret file", () => {
    const secret = "s".repeat(40);
    const local = freshDataDir();
    expect(loadConfig({ DATA_DIR: local, BETTER_AUTH_SECRET: secret }).authSecret).toBe(secret);
    const production = freshDataDir();
    const problems = problemsOf({
      NODE_ENV: "production",
      DATA_DIR: production,
      DATABASE_URL: "postgres://db.internal/app",
      PUBLIC_URL: "https://digsandgigs.example",
      PAYMENTS_PROVIDER: "test",
      MAIL_TRANSPORT: "outbox",
    });
    expect(problems).toEqual(["BETTER_AUTH_SECRET: required in production (at least 32 random characters that sign sessions)"]);
    for (const dir of [local, production]) expect(() => statSync(path.join(dir, "auth-secret"))).toThrow(/ENOENT/);
  });

  it("keeps a fixed secret in test mode and writes nothing", () => {
    const dataDir = freshDataDir();
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }).authSecret).toBe(loadConfig({ NODE_ENV: "test" }).authSecret);
    expect(() => statSync(dataDir)).toThrow(/ENOENT/);
  });

  it("listens on loopback only in local mode (its /dev/mail shows password-reset links), on every interface in production, or on HOST", () => {
    expect(loadConfig({ NODE_ENV: "test" }).host).toBe("127.0.0.1");
    expect(loadConfig({ NODE_ENV: "development", DATA_DIR: freshDataDir() }).host).toBe("127.0.0.1");
    expect(loadConfig({ NODE_ENV: "test", HOST: "" }).host).toBe("127.0.0.1");
    expect(loadConfig(PRODUCTION).host).toBe("0.0.0.0");
    expect(loadConfig({ NODE_ENV: "test", HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(loadConfig({ ...PRODUCTION, HOST: "10.0.0.5" }).host).toBe("10.0.0.5");
  });

  it("trusts no proxy by default, and makes cookies Secure from PUBLIC_URL's scheme or production, never per request", () => {
    expect(loadConfig({ NODE_ENV: "test" }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: "test", TRUST_PROXY: "1" }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ NODE_ENV: "test" }).secureCookies).toBe(false);
    expect(loadConfig({ NODE_ENV: "test", PUBLIC_URL: "https://digs.example" }).secureCookies).toBe(true);
  });

  describe("Web Push's VAPID keys (VAPID_*)", () => {
    const production = PRODUCTION;
    const keys = { VAPID_PUBLIC_KEY: `B${"A".repeat(86)}`, VAPID_PRIVATE_KEY: "A".repeat(43) };

    it("has no pushes in production without keys, and the environment's with them (subject: SUPPORT_EMAIL unless set)", () => {
      const dataDir = freshDataDir();
      expect(loadConfig({ ...production, DATA_DIR: dataDir }).push).toBeNull();
      expect(() => statSync(path.join(dataDir, "vapid-keys"))).toThrow(/ENOENT/);
      expect(loadConfig({ ...production, ...keys }).push).toEqual({ publicKey: keys.VAPID_PUBLIC_KEY, privateKey: keys.VAPID_PRIVATE_KEY, subject: "mailto:support@digsandgigs.local" });
      expect(loadConfig({ ...production, ...keys, VAPID_SUBJECT: "https://digsandgigs.example/contact" }).push?.subject).toBe("https://digsandgigs.example/contact");
    });

    it("refuses one key without the other, keys of the wrong size and a subject that is no address", () => {
      expect(problemsOf({ ...production, VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY })).toEqual(["VAPID_PRIVATE_KEY: required with VAPID_PUBLIC_KEY"]);
      expect(problemsOf({ ...production, VAPID_PRIVATE_KEY: keys.VAPID_PRIVATE_KEY })).toEqual(["VAPID_PUBLIC_KEY: required with VAPID_PRIVATE_KEY"]);
      expect(problemsOf({ ...production, ...keys, VAPID_PUBLIC_KEY: "BAAA" })[0]).toMatch(/^VAPID_PUBLIC_KEY: /);
      expect(problemsOf({ ...production, ...keys, VAPID_PRIVATE_KEY: "not base64url!" })[0]).toMatch(/^VAPID_PRIVATE_KEY: /);
      expect(problemsOf({ ...production, ...keys, VAPID_SUBJECT: "support" })[0]).toMatch(/^VAPID_SUBJECT: /);
    });

    it("takes the tests' push service hosts (PUSH_SERVICE_TEST_HOSTS) outside production only, host names or addresses without ports", () => {
      expect(loadConfig({ NODE_ENV: "test" }).pushServiceTestHosts).toEqual([]);
      expect(loadConfig({ NODE_ENV: "test", PUSH_SERVICE_TEST_HOSTS: " 127.0.0.1, Push.Example.Test ,[::1]" }).pushServiceTestHosts).toEqual(["127.0.0.1", "push.example.test", "[::1]"]);
      expect(problemsOf({ ...production, ...keys, PUSH_SERVICE_TEST_HOSTS: "127.0.0.1" })).toEqual([
        "PUSH_SERVICE_TEST_HOSTS: not allowed in production (production sends pushes only to the browser vendors' push services)",
      ]);
      for (const hosts of ["127.0.0.1:9444", "https://127.0.0.1", "::1", "push.example.test/push"]) {
        expect(problemsOf({ NODE_ENV: "test", PUSH_SERVICE_TEST_HOSTS: hosts })[0], hosts).toMatch(/^PUSH_SERVICE_TEST_HOSTS: host names or addresses/);
      }
    });

    it("makes a key pair on the first local start, keeps it in DATA_DIR/vapid-keys (0600) and reads it again", () => {
      const dataDir = freshDataDir();
      const first = loadConfig({ DATA_DIR: dataDir }).push;
      expect(Buffer.from(first!.publicKey, "base64url")).toHaveLength(65);
      expect(Buffer.from(first!.privateKey, "base64url")).toHaveLength(32);
      expect(statSync(path.join(dataDir, "vapid-keys")).mode & 0o777).toBe(0o600);
      expect(loadConfig({ DATA_DIR: dataDir }).push).toEqual(first);
      expect(loadConfig({ DATA_DIR: freshDataDir() }).push?.publicKey).not.toBe(first!.publicKey);
    });

    it("keeps a fixed pair in test mode and writes nothing", () => {
      const dataDir = freshDataDir();
      expect(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }).push).toEqual(loadConfig({ NODE_ENV: "test" }).push);
      expect(() => statSync(dataDir)).toThrow(/ENOENT/);
    });
  });

  describe("text messages and phone numbers (SMS_*, DEFAULT_PHONE_COUNTRY; issue 49)", () => {
    const production = PRODUCTION;
    const sns = { SMS_PROVIDER: "sns", SMS_SNS_REGION: "us-east-1" };

    it("keeps texts in local mode's outbox, and has none in production without SMS_PROVIDER (verification off)", () => {
      expect(loadConfig({ NODE_ENV: "test" }).sms).toEqual({ provider: "outbox" });
      expect(loadConfig(production).sms).toBeNull();
      expect(problemsOf({ ...production, SMS_PROVIDER: "outbox" })).toEqual([
        "SMS_PROVIDER: outbox is for local mode only (set sns, or leave it unset to turn phone verification off)",
      ]);
    });

    it("sends through SNS with a region, both keys or neither, and an https endpoint in production", () => {
      expect(loadConfig({ ...production, ...sns }).sms).toEqual({ provider: "sns", region: "us-east-1", endpoint: undefined, credentials: undefined });
      expect(problemsOf({ ...production, SMS_PROVIDER: "sns" })).toEqual(["SMS_SNS_REGION: required when SMS_PROVIDER=sns"]);
      expect(problemsOf({ ...production, ...sns, SMS_SNS_ACCESS_KEY_ID: "AKIA" })).toEqual(["SMS_SNS_SECRET_ACCESS_KEY: required with SMS_SNS_ACCESS_KEY_ID"]);
      expect(problemsOf({ ...production, ...sns, SMS_SNS_ENDPOINT: "http://sns.internal" })).toEqual(["SMS_SNS_ENDPOINT: must be https in production"]);
      expect(loadConfig({ ...production, ...sns, SMS_SNS_ENDPOINT: "https://sns.internal" }).sms).toMatchObject({ endpoint: "https://sns.internal" });
      expect(loadConfig({ NODE_ENV: "test", ...sns, SMS_SNS_ENDPOINT: "http://127.0.0.1:9555" }).sms).toMatchObject({ endpoint: "http://127.0.0.1:9555" });
    });

    it("reads numbers in DEFAULT_PHONE_COUNTRY (US unless set; a country code the metadata knows)", () => {
      expect(loadConfig({ NODE_ENV: "test" }).defaultPhoneCountry).toBe("US");
      expect(loadConfig({ NODE_ENV: "test", DEFAULT_PHONE_COUNTRY: "GB" }).defaultPhoneCountry).toBe("GB");
      expect(problemsOf({ NODE_ENV: "test", DEFAULT_PHONE_COUNTRY: "XX" })[0]).toMatch(/^DEFAULT_PHONE_COUNTRY: /);
    });

    it("texts only SMS_COUNTRIES, DEFAULT_PHONE_COUNTRY alone unless set", () => {
      expect(loadConfig({ NODE_ENV: "test" }).smsCountries).toEqual(["US"]);
      expect(loadConfig({ NODE_ENV: "test", DEFAULT_PHONE_COUNTRY: "GB" }).smsCountries).toEqual(["GB"]);
      expect(loadConfig({ NODE_ENV: "test", SMS_COUNTRIES: " us, ca " }).smsCountries).toEqual(["US", "CA"]);
      expect(problemsOf({ NODE_ENV: "test", SMS_COUNTRIES: "US,XX" })[0]).toMatch(/^SMS_COUNTRIES: /);
    });
  });

  describe("object storage (S3_*)", () => {
    const minio = { S3_ENDPOINT: "http://minio.internal:9000", S3_BUCKET: "digs-uploads", S3_REGION: "eu-west-1", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" };
    const production = PRODUCTION;

    it("keeps uploads on the local disk under DATA_DIR unless a bucket is set", () => {
      expect(loadConfig({ NODE_ENV: "test" }).storage).toEqual({ kind: "local", dir: path.resolve("data", "uploads") });
    });

    it("uses the object store with all five, path-style for an endpoint of one's own", () => {
      expect(loadConfig({ NODE_ENV: "test", ...minio }).storage).toEqual({
        kind: "s3",
        endpoint: "http://minio.internal:9000",
        bucket: "digs-uploads",
        region: "eu-west-1",
        forcePathStyle: true,
        credentials: { accessKeyId: "key", secretAccessKey: "secret" },
      });
      expect(loadConfig({ ...production, ...minio }).storage.kind).toBe("s3");
    });

    it("uses virtual-hosted style on Amazon's hosts, and S3_FORCE_PATH_STYLE decides either way", () => {
      const storage = (env: Record<string, string>) => loadConfig({ NODE_ENV: "test", ...env }).storage;
      expect(storage({ S3_BUCKET: "b-1" })).toEqual({ kind: "s3", endpoint: undefined, bucket: "b-1", region: "us-east-1", forcePathStyle: false, credentials: undefined });
      expect(storage({ ...minio, S3_ENDPOINT: "https://s3.eu-west-1.amazonaws.com" })).toMatchObject({ forcePathStyle: false });
      expect(storage({ ...minio, S3_FORCE_PATH_STYLE: "false" })).toMatchObject({ forcePathStyle: false });
      expect(storage({ S3_BUCKET: "b-1", S3_FORCE_PATH_STYLE: "true" })).toMatchObject({ forcePathStyle: true });
    });

    it("needs the bucket with any S3 variable, and the key id and secret together", () => {
      expect(problemsOf({ NODE_ENV: "test", S3_ENDPOINT: "http://minio.internal:9000", S3_REGION: "eu-west-1" })).toEqual([
        "S3_BUCKET: required with S3_ENDPOINT, S3_REGION",
      ]);
      expect(problemsOf({ NODE_ENV: "test", S3_FORCE_PATH_STYLE: "true" })).toEqual(["S3_BUCKET: required with S3_FORCE_PATH_STYLE"]);
      expect(problemsOf({ NODE_ENV: "test", S3_BUCKET: "b-1", S3_ACCESS_KEY_ID: "key" })).toEqual(["S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID"]);
      expect(problemsOf({ NODE_ENV: "test", S3_BUCKET: "b-1", S3_SECRET_ACCESS_KEY: "secret" })).toEqual(["S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY"]);
    });

    it("takes all five or none in production, and names each one missing", () => {
      expect(problemsOf({ ...production, S3_BUCKET: "digs-uploads" })).toEqual(
        ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"].map(
          (name) => `${name}: required with S3_BUCKET (in production all five S3_* variables or none)`,
        ),
      );
      const { S3_SECRET_ACCESS_KEY: _, ...withoutSecret } = minio;
      expect(problemsOf({ ...production, ...withoutSecret })).toEqual([
        "S3_SECRET_ACCESS_KEY: required with S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID (in production all five S3_* variables or none)",
      ]);
    });

    it("names a malformed endpoint or bucket", () => {
      expect(problemsOf({ ...minio, S3_ENDPOINT: "minio.internal:9000" }).join("\n")).toMatch(/^S3_ENDPOINT: /m);
      expect(problemsOf({ ...minio, S3_BUCKET: "s3://digs-uploads" }).join("\n")).toMatch(/^S3_BUCKET: a bucket name/m);
      expect(problemsOf({ ...minio, S3_FORCE_PATH_STYLE: "yes" }).join("\n")).toMatch(/^S3_FORCE_PATH_STYLE: /m);
    });
  });

  describe("reply by e-mail (INBOUND_*)", () => {
    it("in local mode: addresses at reply.localhost; a listener on 127.0.0.1:2525 under npm start only, which gives way to a taken port", () => {
      expect(loadConfig({ NODE_ENV: "development", DATA_DIR: freshDataDir() }).inbound).toEqual({
        domain: "reply.localhost",
        smtp: { host: "127.0.0.1", port: 2525, optional: true, tls: null, trustedRelays: [] },
      });
      expect(loadConfig({ NODE_ENV: "test" }).inbound).toEqual({ domain: "reply.localhost", smtp: null });
      expect(loadConfig({ NODE_ENV: "test", INBOUND_SMTP_PORT: "2600", INBOUND_DOMAIN: "Replies.Example.com" }).inbound).toEqual({
        domain: "replies.example.com",
        smtp: { host: "127.0.0.1", port: 2600, optional: false, tls: null, trustedRelays: [] },
      });
    });

    it("INBOUND_TRUSTED_RELAYS: addresses and CIDRs; an unreadable entry or a range of every address stops the start", () => {
      const listening = { ...PRODUCTION, INBOUND_DOMAIN: "reply.digsandgigs.example", INBOUND_SMTP_PORT: "2525" };
      expect(loadConfig({ ...listening, INBOUND_TRUSTED_RELAYS: " 10.0.0.4, 192.168.7.0/24 ,fd00::/8" }).inbound?.smtp?.trustedRelays).toEqual(["10.0.0.4", "192.168.7.0/24", "fd00::/8"]);
      expect(problemsOf({ ...listening, INBOUND_TRUSTED_RELAYS: "mx.example.com" }).join("\n")).toMatch(/^INBOUND_TRUSTED_RELAYS: /m);
      expect(problemsOf({ ...listening, INBOUND_TRUSTED_RELAYS: "10.0.0.4,0.0.0.0/0" }).join("\n")).toMatch(/^INBOUND_TRUSTED_RELAYS: invalid range on address: 0\.0\.0\.0\/0/m);
      expect(problemsOf({ ...listening, INBOUND_TRUSTED_RELAYS: "::/0" }).join("\n")).toMatch(/^INBOUND_TRUSTED_RELAYS: invalid range on address: ::\/0/m);
    });

    it("in production: nothing without INBOUND_DOMAIN; the listener on all interfaces with INBOUND_SMTP_PORT, which needs the domain", () => {
      expect(loadConfig(PRODUCTION).inbound).toBeNull();
      expect(loadConfig({ ...PRODUCTION, INBOUND_DOMAIN: "reply.digsandgigs.example" }).inbound).toEqual({ domain: "reply.digsandgigs.example", smtp: null });
      expect(loadConfig({ ...PRODUCTION, INBOUND_DOMAIN: "reply.digsandgigs.example", INBOUND_SMTP_PORT: "25" }).inbound).toEqual({
        domain: "reply.digsandgigs.example",
        smtp: { host: "0.0.0.0", port: 25, optional: false, tls: null, trustedRelays: [] },
      });
      const tls = { INBOUND_TLS_KEY: "/etc/ssl/private/mx.key", INBOUND_TLS_CERT: "/etc/ssl/certs/mx.pem" };
      expect(loadConfig({ ...PRODUCTION, INBOUND_DOMAIN: "reply.digsandgigs.example", INBOUND_SMTP_PORT: "25", ...tls }).inbound?.smtp?.tls).toEqual({
        keyPath: "/etc/ssl/private/mx.key",
        certPath: "/etc/ssl/certs/mx.pem",
      });
      expect(problemsOf({ ...PRODUCTION, INBOUND_DOMAIN: "reply.digsandgigs.example", INBOUND_TLS_KEY: "/etc/ssl/private/mx.key" })).toEqual([
        "INBOUND_TLS_CERT: required with INBOUND_TLS_KEY",
      ]);
      expect(problemsOf({ ...PRODUCTION, INBOUND_SMTP_PORT: "25" })).toEqual(["INBOUND_DOMAIN: required with INBOUND_SMTP_PORT (the domain of the reply addresses)"]);
      expect(problemsOf({ ...PRODUCTION, INBOUND_DOMAIN: "not a domain" }).join("\n")).toMatch(/^INBOUND_DOMAIN: a domain name/m);
      expect(problemsOf({ ...PRODUCTION, INBOUND_SMTP_PORT: "70000" }).join("\n")).toMatch(/^INBOUND_SMTP_PORT: /m);
    });
  });
});
