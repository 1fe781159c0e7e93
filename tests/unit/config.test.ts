import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";

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
    const config = loadConfig({});
    expect(config.mode).toBe("local");
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.database.kind).toBe("pglite");
    expect(config.database.kind === "pglite" && config.database.dataDir).toMatch(/data[/\\]pglite$/);
    expect(config.seedDemoData).toBe(true);
    expect(config.payments.provider).toBe("test");
    expect(config.mail.transport).toBe("outbox");
  });

  it("switches to PostgreSQL with DATABASE_URL and then seeds no demo data unless asked", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://postgres@127.0.0.1:5432/test" });
    expect(config.seedDemoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://h/db", SEED_DEMO_DATA: "true" }).seedDemoData).toBe(true);
  });

  it("names the variable that is malformed", () => {
    expect(problemsOf({ PORT: "not-a-port" }).join("\n")).toMatch(/^PORT: /m);
    expect(problemsOf({ DATABASE_URL: "mysql://x/y" }).join("\n")).toMatch(/^DATABASE_URL: /m);
    expect(problemsOf({ LOG_LEVEL: "loud" }).join("\n")).toMatch(/^LOG_LEVEL: /m);
    expect(problemsOf({ BETTER_AUTH_SECRET: "short" }).join("\n")).toMatch(/^BETTER_AUTH_SECRET: /m);
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
    const config = loadConfig({ STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_1" });
    expect(config.payments).toEqual({ provider: "stripe", secretKey: "sk_test_123", webhookSecret: "whsec_1" });
  });
});
