/**
 * A TCP forwarder in front of a PostgreSQL server, for a connection that dies without a word:
 * `freeze()` stops moving bytes both ways on every connection, open or opened meanwhile,
 * without closing any (a partition, a NAT that dropped the flow, a half-open socket), and
 * `thaw()` moves them again. A side that closes closes the other.
 */
import { connect, createServer, type AddressInfo, type Socket } from "node:net";

export interface TcpForwarder {
  /** `databaseUrl` with the forwarder's host and port. */
  url: string;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpForwarder(databaseUrl: string): Promise<TcpForwarder> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let frozen = false;
  // Not pipe(): a pipe resumes its source at the next 'drain', and a frozen link must stay still.
  const forward = (from: Socket, to: Socket) => {
    sockets.add(from);
    if (frozen) from.pause();
    from.on("data", (chunk) => to.write(chunk));
    from.on("error", () => to.destroy());
    from.on("close", () => {
      sockets.delete(from);
      to.destroy();
    });
  };
  const server = createServer((inbound) => {
    const outbound = connect(Number(target.port || 5432), target.hostname);
    forward(inbound, outbound);
    forward(outbound, inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const socket of sockets) socket.resume();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
