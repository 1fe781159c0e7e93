/**
 * PostgreSQL addresses where no database answers, for what the server does while its
 * database is away: nothing listening, or a TCP listener standing in for a broken server.
 */
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { freePort } from "./ports.ts";

/** A free port where nothing listens: every connection is refused. */
export const refusedDatabaseUrl = async () => `postgres://postgres@127.0.0.1:${await freePort()}/away`;

/** A listener that keeps connections open and never answers ("silent"), or closes them at once ("hang-up"). */
export async function brokenServer(behaviour: "silent" | "hang-up"): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    if (behaviour === "hang-up") socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/away`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
