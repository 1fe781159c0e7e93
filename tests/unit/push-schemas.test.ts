import { describe, expect, it } from "vitest";
import { deviceSummary, PUSH_MESSAGES, pushSubscriptionSchema } from "../../core/push-schemas.ts";

const key65 = `B${"A".repeat(86)}`;
const auth16 = "A".repeat(22);
const parse = (fields: Record<string, string>, allowLocalHttp = false) =>
  pushSubscriptionSchema({ allowLocalHttp }).safeParse({ endpoint: "https://fcm.googleapis.com/fcm/send/abc", p256dh: key65, auth: auth16, ...fields }).success;

describe("a push subscription (core/push-schemas.ts)", () => {
  it("takes an https endpoint with a 65-byte key and a 16-byte secret", () => {
    expect(parse({})).toBe(true);
  });

  it("takes plain http only to this machine, and only when allowed (tests)", () => {
    for (const endpoint of ["http://127.0.0.1:9000/push/1", "http://localhost:9000/push/1"]) {
      expect(parse({ endpoint }, true), endpoint).toBe(true);
      expect(parse({ endpoint }, false), endpoint).toBe(false);
    }
    expect(parse({ endpoint: "http://push.example.com/1" }, true)).toBe(false);
    expect(parse({ endpoint: "https://user:pass@push.example.com/1" })).toBe(false);
    expect(parse({ endpoint: `https://push.example.com/${"a".repeat(2100)}` })).toBe(false);
  });

  it("refuses a missing field with the subscription's message", () => {
    for (const field of ["endpoint", "p256dh", "auth"]) {
      const fields: Record<string, string> = { endpoint: "https://fcm.googleapis.com/fcm/send/abc", p256dh: key65, auth: auth16 };
      delete fields[field];
      expect(pushSubscriptionSchema({ allowLocalHttp: false }).safeParse(fields).error?.issues[0]?.message, field).toBe(PUSH_MESSAGES.badSubscription);
    }
  });

  it("refuses keys of the wrong size or alphabet", () => {
    expect(parse({ p256dh: key65.slice(0, 80) })).toBe(false);
    expect(parse({ p256dh: `C${key65.slice(1)}` })).toBe(false);
    expect(parse({ p256dh: key65.replace("A", "+") })).toBe(false);
    expect(parse({ auth: "A".repeat(21) })).toBe(false);
    expect(parse({ auth: "A".repeat(20) + "==" })).toBe(false);
  });
});

describe("deviceSummary", () => {
  it.each([
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Chrome on Android"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", "Safari on iOS"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on macOS"],
    ["", "A browser on an unknown system"],
  ])("%s is %s", (userAgent, summary) => {
    expect(deviceSummary(userAgent)).toBe(summary);
  });
});
