/**
 * Push notifications per device (issue 34): what a browser's push subscription must be for the
 * server to keep it, the cap of devices per user, and the card's messages. The browser sends
 * the subscription it got from `pushManager.subscribe` (endpoint and keys); the same schema
 * checks it on both sides.
 */
import { z } from "zod";

export const MAX_PUSH_DEVICES = 10;

export const PUSH_MESSAGES = {
  tooMany: `You can turn notifications on for at most ${MAX_PUSH_DEVICES} devices. Remove one first.`,
  turnedOn: "Notifications are on for this device.",
  removed: "Device removed. It gets no more notifications.",
  notFound: "That device is not on your list.",
  badSubscription: "This browser gave an unusable subscription. Please try again.",
  unsupported: "This browser cannot show notifications from Digs & Gigs.",
  refused:
    "Notifications are blocked for Digs & Gigs in this browser. To allow them again, open the site's settings (the icon beside the address) and set Notifications to Allow, then press Turn on.",
} as const;

/** Bytes of base64url text (no padding), or -1 when it is not base64url. */
function base64UrlBytes(text: string): number {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return -1;
  return Math.floor((text.length * 3) / 4);
}

/** A P-256 public key, uncompressed (65 bytes, 0x04 first): what a browser's p256dh key is. */
const p256dhKey = z
  .string(PUSH_MESSAGES.badSubscription)
  .trim()
  .refine((k) => base64UrlBytes(k) === 65 && k.startsWith("B"), PUSH_MESSAGES.badSubscription);
/** The 16-byte authentication secret. */
const authSecret = z
  .string(PUSH_MESSAGES.badSubscription)
  .trim()
  .refine((k) => base64UrlBytes(k) === 16, PUSH_MESSAGES.badSubscription);

/**
 * A push service's address: https always; plain http only to this machine and only when
 * `allowLocalHttp` (tests, whose local push service may listen on http).
 */
export function pushEndpoint(allowLocalHttp: boolean) {
  return z
    .string(PUSH_MESSAGES.badSubscription)
    .trim()
    .max(2048, PUSH_MESSAGES.badSubscription)
    .refine((value) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return false;
      }
      if (url.username || url.password) return false;
      if (url.protocol === "https:") return true;
      return allowLocalHttp && url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    }, PUSH_MESSAGES.badSubscription);
}

export function pushSubscriptionSchema({ allowLocalHttp }: { allowLocalHttp: boolean }) {
  return z.object({ endpoint: pushEndpoint(allowLocalHttp), p256dh: p256dhKey, auth: authSecret });
}

export type PushSubscriptionInput = z.infer<ReturnType<typeof pushSubscriptionSchema>>;

export const removePushDeviceSchema = z.object({ deviceId: z.uuid(PUSH_MESSAGES.notFound) });

/** Browsers and systems by a mark of their user agent, the more specific first (Edge says Chrome too). */
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

/** "Chrome on Android": a device's browser and system as a person names them, from its user agent. */
export function deviceSummary(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  const browser = BROWSERS.find(([mark]) => mark.test(ua))?.[1] ?? "A browser";
  const system = SYSTEMS.find(([mark]) => mark.test(ua))?.[1] ?? "an unknown system";
  return `${browser} on ${system}`;
}
