/**
 * Waiting for the bus to have heard what was committed before: PostgreSQL delivers a listener's
 * notices in the order their transactions committed, so once a notice sent now comes back, every
 * notice committed earlier (a trigger's `session_version`, say) has reached the subscribers.
 * A test that changes a row and then asks a page whether the change counts waits for this
 * first; otherwise it races the notice's delivery, which a loaded machine can delay past the
 * next request (decision 0053: the window is one NOTIFY round trip).
 */
import { randomUUID } from "node:crypto";
import type { TestApp } from "./app.ts";

export async function busCaughtUp(app: TestApp): Promise<void> {
  const token = randomUUID();
  let heard!: () => void;
  const back = new Promise<void>((resolve) => (heard = resolve));
  const unsubscribe = app.services.bus.subscribe("test_caught_up", { message: (payload) => payload === token && heard() });
  try {
    // The channel's LISTEN starts with the subscription, a moment later: a notice sent before
    // it is not heard, so send again until one comes back.
    for (let heardBack = false; !heardBack; ) {
      await app.services.bus.send("test_caught_up", token);
      heardBack = await Promise.race([back.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, 200, false))]);
    }
  } finally {
    unsubscribe();
  }
}
