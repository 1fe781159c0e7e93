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
  /** Turn on failed: the permission not given, or the browser refused (or never made) the subscription. */
  couldNotTurnOn: "Notifications could not be turned on in this browser.",
  /** iOS offers pushes only to a site added to the Home Screen (a web app), never in a Safari tab. */
  iPhoneHomeScreen: "On an iPhone, notifications work once you add Digs & Gigs to your Home Screen: tap Share, then Add to Home Screen.",
  unsupportedService: "This browser's push service is not supported.",
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
 * The push services a subscription may name (issue 45, finding 1): the browser vendors' own,
 * on port 443, matched on whole labels. Chrome, Edge and Opera use Firebase Cloud Messaging,
 * Firefox Mozilla's autopush, Safari Apple's (web.push.apple.com and the like), and Windows
 * apps WNS. Anything else would make the server connect wherever a browser's form said. The
 * README's Web Push part lists the same hosts.
 */
const PUSH_SERVICES = {
  /** These hosts exactly. */
  hosts: ["fcm.googleapis.com", "updates.push.services.mozilla.com"],
  /** Any host under these (`*.push.apple.com`), not the domain itself. */
  domains: ["push.apple.com", "notify.windows.com"],
} as const;

/**
 * Whether `url` is a push service the server sends to: a vendor's on 443, or a host named in
 * `testHosts` (PUSH_SERVICE_TEST_HOSTS, never in production: the tests' own push service) on
 * any port.
 */
function isSupportedPushService(url: URL, testHosts: readonly string[]): boolean {
  if (url.protocol !== "https:") return false;
  if (testHosts.includes(url.hostname)) return true;
  if (url.port !== "") return false; // "" is https' own 443: URL drops it.
  return PUSH_SERVICES.hosts.some((host) => url.hostname === host) || PUSH_SERVICES.domains.some((domain) => url.hostname.endsWith(`.${domain}`));
}

function urlOf(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * A push service's address: an https URL without credentials, kept as the URL parser writes
 * it (one spelling per address). With `testHosts`, also one of the push services the server
 * sends to; null in the browser, whose check leaves that to the server's.
 */
function pushEndpoint(testHosts: readonly string[] | null) {
  return z
    .string(PUSH_MESSAGES.badSubscription)
    .trim()
    .max(2048, PUSH_MESSAGES.badSubscription)
    .refine((value) => {
      const url = urlOf(value);
      return url !== null && url.protocol === "https:" && !url.username && !url.password;
    }, PUSH_MESSAGES.badSubscription)
    .transform((value) => new URL(value).href)
    .refine((href) => testHosts === null || isSupportedPushService(new URL(href), testHosts), PUSH_MESSAGES.unsupportedService);
}

export function pushSubscriptionSchema({ testHosts }: { testHosts: readonly string[] | null }) {
  return z.object({ endpoint: pushEndpoint(testHosts), p256dh: p256dhKey, auth: authSecret });
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
