/**
 * A free port on 127.0.0.1, for a server a test or the benchmarks start. Node-only, with no
 * dependency on the app: bench/lib imports it too.
 */
import { createServer, type AddressInfo } from "node:net";

/** A port with nothing listening on it (free a moment ago). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
