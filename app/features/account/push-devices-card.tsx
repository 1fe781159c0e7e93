/**
 * The account page's Notifications on this device card (issue 34): Turn on asks the browser's
 * permission and sends the device's push subscription to /account (intent `push-on`); the
 * list shows the user's devices with Remove (intent `push-remove`). A failed Turn on says so
 * (issue 47), and a refused permission how to allow it again. Pushes need JavaScript and a
 * service worker: without them the card says this browser cannot show notifications; on an
 * iPhone, in a Safari tab rather than the Home Screen app, it says how to get them.
 */
import { useState } from "react";
import { Form, useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { toastError } from "#app/lib/toasts.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { firstMessage } from "#core/forms.ts";
import { PUSH_MESSAGES, pushSubscriptionSchema } from "#core/push-schemas.ts";

interface Device {
  id: string;
  device: string;
  createdAtText: string;
  lastUsedText: string;
  current: boolean;
}

/** What this browser allows: before the first render in it, "checking"; an iPhone's Safari tab, "home-screen". */
type Permission = "checking" | "unsupported" | "home-screen" | NotificationPermission;

/** An iPhone or iPad whose page is not the app added to the Home Screen (iOS gives pushes only to that). */
function iPhoneInSafari(): boolean {
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true || window.matchMedia("(display-mode: standalone)").matches;
  return /iPhone|iPad|iPod/.test(navigator.userAgent) && !standalone;
}

function browserPermission(): Permission {
  if (iPhoneInSafari()) return "home-screen";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "unsupported";
  return Notification.permission;
}

/** The service worker, or an error when none is ready in time (blocked, or failed to install): Turn on never waits forever. */
async function readyWorker(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no service worker")), 10_000);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The VAPID public key as `pushManager.subscribe` takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** This browser's push subscription for the site, made with `publicKey` (a stale one is replaced). */
async function subscription(publicKey: string): Promise<PushSubscription> {
  const registration = await readyWorker();
  const options = { userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) };
  try {
    return await registration.pushManager.subscribe(options);
  } catch (error) {
    // Subscribed before with another server key: that subscription goes, and a new one is made.
    const old = await registration.pushManager.getSubscription();
    if (!old) throw error;
    await old.unsubscribe();
    return registration.pushManager.subscribe(options);
  }
}

export function PushDevicesCard({ card }: { card: { publicKey: string; devices: Device[] } }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  // The browser's answer to Turn on, once asked; before that what it says now.
  const [answered, setAnswered] = useState<NotificationPermission | null>(null);
  const [asking, setAsking] = useState(false);
  // The last Turn on failed: said in the card until the next try.
  const [failed, setFailed] = useState(false);
  const permission: Permission = hydrated ? (answered ?? browserPermission()) : "checking";
  const thisDeviceOn = permission === "granted" && card.devices.some((d) => d.current);
  const busy = asking || fetcher.state !== "idle";

  async function turnOn() {
    setAsking(true);
    setFailed(false);
    try {
      const answer = await Notification.requestPermission();
      setAnswered(answer);
      if (answer !== "granted") {
        setFailed(true);
        return;
      }
      const { endpoint, keys } = (await subscription(card.publicKey)).toJSON();
      const fields = { endpoint: endpoint ?? "", p256dh: keys?.p256dh ?? "", auth: keys?.auth ?? "" };
      // The subscription's shape; which push services are taken is the server's to say.
      const parsed = pushSubscriptionSchema({ testHosts: null }).safeParse(fields);
      if (!parsed.success) {
        toastError(firstMessage(parsed.error));
        return;
      }
      await fetcher.submit({ intent: "push-on", ...fields }, { method: "post", action: "/account" });
    } catch {
      // The browser refused the subscription, or has no push service or service worker to make it.
      setFailed(true);
      toastError(PUSH_MESSAGES.couldNotTurnOn);
    } finally {
      setAsking(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          Notifications on this device{" "}
          <Badge variant={thisDeviceOn ? "default" : "outline"}>{thisDeviceOn ? "On" : "Off"}</Badge>
        </CardTitle>
        <CardDescription>
          Get a notification on this phone or computer as soon as something happens, even when Digs & Gigs is not open.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {/* Kept in the card (the toast goes): what failed, then what to do about it. */}
        <div role="status" className="grid gap-2 text-sm empty:hidden">
          {failed ? <p className="font-medium">{PUSH_MESSAGES.couldNotTurnOn}</p> : null}
          {permission === "home-screen" ? (
            <p>{PUSH_MESSAGES.iPhoneHomeScreen}</p>
          ) : permission === "unsupported" ? (
            <p className="text-muted-foreground">{PUSH_MESSAGES.unsupported}</p>
          ) : permission === "denied" ? (
            <p>{PUSH_MESSAGES.refused}</p>
          ) : null}
        </div>
        {thisDeviceOn || permission === "unsupported" || permission === "home-screen" ? null : (
          <div>
            <Button type="button" onClick={turnOn} disabled={busy || permission === "checking"}>
              {busy ? "Turning on..." : "Turn on"}
            </Button>
          </div>
        )}
        <DeviceList devices={card.devices} />
      </CardContent>
    </Card>
  );
}

function DeviceList({ devices }: { devices: Device[] }) {
  if (devices.length === 0) return <p className="text-sm text-muted-foreground">No devices get notifications yet.</p>;
  return (
    <ul aria-label="Devices with notifications on" className="grid gap-3">
      {devices.map((device) => (
        <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3">
          <div className="grid gap-1 text-sm">
            <p className="font-medium" id={`push-device-${device.id}`}>
              {device.device} {device.current ? <Badge variant="secondary">This device</Badge> : null}
            </p>
            <p className="text-muted-foreground">
              {`Added ${device.createdAtText} · Last used ${device.lastUsedText}`}
            </p>
          </div>
          <Form method="post" navigate={false} fetcherKey={`push-remove-${device.id}`}>
            <input type="hidden" name="intent" value="push-remove" />
            <input type="hidden" name="deviceId" value={device.id} />
            <Button type="submit" variant="outline" size="sm" aria-describedby={`push-device-${device.id}`}>
              Remove
            </Button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
