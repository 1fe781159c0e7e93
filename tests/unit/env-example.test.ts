/**
 * Every setting is documented (README's Configuration): each environment variable the
 * configuration reads (server/config.ts's schema) has its line in .env.example, set or
 * commented out, so that a new setting cannot ship unexplained (issue 49's SMS_* among them).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The schema's top-level keys: the lines `  NAME:` of `const envSchema = z.object({ ... });`. */
function settingsOfTheSchema(): string[] {
  const source = read("server/config.ts");
  const start = source.indexOf("const envSchema = z.object({");
  const end = source.indexOf("\n});", start);
  expect(start, "server/config.ts has an envSchema").toBeGreaterThan(-1);
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);
}

describe(".env.example", () => {
  it("lists every setting the configuration reads", () => {
    const settings = settingsOfTheSchema();
    expect(settings.length).toBeGreaterThan(50);
    expect(settings).toEqual(expect.arrayContaining(["DEFAULT_PHONE_COUNTRY", "SMS_PROVIDER", "SMS_SNS_REGION", "SMS_DAILY_CAP_PER_COUNTRY"]));
    const example = read(".env.example");
    const missing = settings.filter((name) => !new RegExp(`^(# )?${name}=`, "m").test(example));
    expect(missing).toEqual([]);
  });
});
