import { describe, expect, it } from "vitest";
import { deviceSummary, PUSH_MESSAGES, pushSubscriptionSchema } from "../../core/push-schemas.ts";

const key65 = `B${"A".repeat(86)}`;
const auth16 = "A".repeat(22);
const parse = (fields: Record<string, string>, testHosts: string[] | null = []) =>
  pushSubscriptionSchema({ testHosts }).safeParse({ endpoint: "https://fcm.googleapis.com/fcm/send/abc", p256dh: key65, auth: auth16, ...fields });
const takes = (fields: Record<string, string>, testHosts: string[] | null = []) => parse(fields, testHosts).success;

describe("a push subscription (core/push-schemas.ts)", () => {
  it("takes an https endpoint with a 65-byte key and a 16-byte secret", () => {
    expect(takes({})).toBe(true);
  });

  it("takes https only, without credentials, at most 2048 characters", () => {
    for (const endpoint of ["http://fcm.googleapis.com/fcm/send/1", "https://user:pass@fcm.googleapis.com/1", `https://fcm.googleapis.com/${"a".repeat(2100)}`, "javascript:alert(1)", "not a url"]) {
      expect(parse({ endpoint }).error?.issues.map((issue) => issue.message), endpoint).toEqual([PUSH_MESSAGES.badSubscription]);
      expect(takes({ endpoint }, null), endpoint).toBe(false);
    }
  });

  it("takes the browser vendors' push services on 443, matched on whole labels (issue 45, finding 1)", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com:443/fcm/send/abc",
      "https://FCM.GoogleAPIs.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/abc",
      "https://api.push.apple.com/abc",
      "https://wns2-by3p.notify.windows.com/w/?token=abc",
    ]) {
      expect(takes({ endpoint }), endpoint).toBe(true);
    }
    for (const endpoint of [
      "https://127.0.0.1:9444/push",
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/",
      "https://[::1]:9445/",
      "https://localhost:4100/push",
      "https://fcm.googleapis.com:8443/fcm/send/abc",
      "https://fcm.googleapis.com./fcm/send/abc",
      "https://evilfcm.googleapis.com/x",
      "https://fcm.googleapis.com.attacker.example/x",
      "https://push.apple.com/x",
      "https://evilpush.apple.com/x",
      "https://notify.windows.com/x",
      "https://web.push.apple.com.attacker.example/x",
    ]) {
      expect(parse({ endpoint }).error?.issues.map((issue) => issue.message), endpoint).toEqual(["This browser's push service is not supported."]);
      // The browser's own check leaves the push service to the server's.
      expect(takes({ endpoint }, null), endpoint).toBe(true);
    }
  });

  it("takes the hosts of PUSH_SERVICE_TEST_HOSTS on any port, and keeps the endpoint as the URL parser writes it", () => {
    expect(takes({ endpoint: "https://127.0.0.1:9444/push/1" }, ["127.0.0.1"])).toBe(true);
    expect(takes({ endpoint: "https://[::1]:9445/push/1" }, ["[::1]"])).toBe(true);
    expect(takes({ endpoint: "https://localhost:4100/push/1" }, ["127.0.0.1"])).toBe(false);
    expect(parse({ endpoint: " https://FCM.googleapis.com:443/fcm/send/abc " }).data?.endpoint).toBe("https://fcm.googleapis.com/fcm/send/abc");
  });

  it("refuses a missing field with the subscription's message", () => {
    for (const field of ["endpoint", "p256dh", "auth"]) {
      const fields: Record<string, string> = { endpoint: "https://fcm.googleapis.com/fcm/send/abc", p256dh: key65, auth: auth16 };
      delete fields[field];
      expect(pushSubscriptionSchema({ testHosts: [] }).safeParse(fields).error?.issues[0]?.message, field).toBe(PUSH_MESSAGES.badSubscription);
    }
  });

  it("refuses keys of the wrong size or alphabet", () => {
    expect(takes({ p256dh: key65.slice(0, 80) })).toBe(false);
    expect(takes({ p256dh: `C${key65.slice(1)}` })).toBe(false);
    expect(takes({ p256dh: key65.replace("A", "+") })).toBe(false);
    expect(takes({ auth: "A".repeat(21) })).toBe(false);
    expect(takes({ auth: "A".repeat(20) + "==" })).toBe(false);
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
