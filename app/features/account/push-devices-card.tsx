/**
 * The account page's Notifications on this device card (issue 34): Turn on asks the browser's
 * permission and sends the device's push subscription to /account (intent `push-on`); the
 * list shows the user's devices with Remove (intent `push-remove`). A refused permission says
 * how to allow it again. Pushes need JavaScript and a service worker: without them the card
 * says this browser cannot show notifications.
 */
import { useState } from "react";
import { Form, useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { toastError } from "#app/lib/toasts.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { formatDateTime } from "#core/dates.ts";
import { firstMessage } from "#core/forms.ts";
import { PUSH_MESSAGES, pushSubscriptionSchema } from "#core/push-schemas.ts";

interface Device {
  id: string;
  device: string;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
  current: boolean;
}

/** What this browser allows: before the first render in it, "checking". */
type Permission = "checking" | "unsupported" | NotificationPermission;

function browserPermission(): Permission {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "unsupported";
  return Notification.permission;
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
  const registration = await navigator.serviceWorker.ready;
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
  const permission: Permission = hydrated ? (answered ?? browserPermission()) : "checking";
  const thisDeviceOn = permission === "granted" && card.devices.some((d) => d.current);
  const busy = asking || fetcher.state !== "idle";

  async function turnOn() {
    setAsking(true);
    try {
      const answer = await Notification.requestPermission();
      setAnswered(answer);
      if (answer !== "granted") return;
      const { endpoint, keys } = (await subscription(card.publicKey)).toJSON();
      const fields = { endpoint: endpoint ?? "", p256dh: keys?.p256dh ?? "", auth: keys?.auth ?? "" };
      // The server's check (it alone knows whether a plain-http test service is allowed).
      const parsed = pushSubscriptionSchema({ allowLocalHttp: true }).safeParse(fields);
      if (!parsed.success) {
        toastError(firstMessage(parsed.error));
        return;
      }
      await fetcher.submit({ intent: "push-on", ...fields }, { method: "post", action: "/account" });
    } catch {
      toastError(PUSH_MESSAGES.unsupported);
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
        {permission === "unsupported" ? (
          <p className="text-sm text-muted-foreground">{PUSH_MESSAGES.unsupported}</p>
        ) : permission === "denied" ? (
          <p role="status" className="text-sm">
            {PUSH_MESSAGES.refused}
          </p>
        ) : null}
        {thisDeviceOn || permission === "unsupported" ? null : (
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
              Added {formatDateTime(device.createdAt)} · Last used {device.lastUsedAt ? formatDateTime(device.lastUsedAt) : "never"}
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
