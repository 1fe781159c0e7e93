/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, no TLS, no authentication) that
 * keeps every message it accepts, parsed with postal-mime. Set `rejectWith` to make it refuse
 * messages, as a failing mail server would, or `refuseRecipient` to refuse one address; it
 * counts the connections it accepts. `startStallingSmtpServer` is one that stops answering.
 */
import { createServer, type AddressInfo, type Socket } from "node:net";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

export interface ReceivedMessage {
  envelope: { from: string | null; to: string[] };
  parsed: Email;
  raw: Buffer;
}

export interface TestSmtpServer {
  port: number;
  /** The SMTP_URL that reaches this server. */
  url: string;
  /** Accepted messages, in arrival order (each is here before the client sees the reply). */
  messages: ReceivedMessage[];
  /** When set, every message is refused with this reply (4xx: try later, 5xx: permanent). */
  rejectWith: { code: number; message: string } | null;
  /** Messages refused because of `rejectWith`. */
  rejected: number;
  /** When set, this one recipient is refused at RCPT TO with this reply; the others are taken. */
  refuseRecipient: { address: string; code: number; message: string } | null;
  /** Connections accepted so far (a pooling client opens few for many messages). */
  connections: number;
  stop(): Promise<void>;
}

/** Starts a server on the given port (default: any free one). */
export async function startSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    port: 0,
    url: "",
    messages: [],
    rejectWith: null,
    rejected: 0,
    refuseRecipient: null,
    connections: 0,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    closeTimeout: 1000,
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const refusal = state.refuseRecipient;
      if (refusal && address.address.toLowerCase() === refusal.address.toLowerCase()) {
        state.rejected += 1;
        callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const refusal = state.rejectWith;
        if (refusal) {
          state.rejected += 1;
          callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          return;
        }
        const raw = Buffer.concat(chunks);
        PostalMime.parse(raw).then(
          (parsed) => {
            state.messages.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              parsed,
              raw,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A client dropping its connection must not fail the test run.
  server.on("error", () => {});
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

export interface StallingSmtpServer {
  port: number;
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /** Messages whose whole content (up to the final ".") arrived, never answered. */
  messagesHeld: number;
  stop(): Promise<void>;
}

/**
 * An SMTP server that accepts the connection and then stops answering: before its greeting
 * ("connect"), after the greeting, at EHLO ("ehlo"), or after the whole message, at the final
 * "." ("data"), as a hung or overloaded mail server would. It keeps the connection open.
 */
export async function startStallingSmtpServer(stallAt: "connect" | "ehlo" | "data", options: { port?: number } = {}): Promise<StallingSmtpServer> {
  const sockets = new Set<Socket>();
  const state: StallingSmtpServer = {
    port: 0,
    url: "",
    connections: 0,
    messagesHeld: 0,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    if (stallAt === "connect") return;
    socket.write("220 stall.test ESMTP\r\n");
    let inData = false;
    let buffered = "";
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      let end: number;
      while ((end = buffered.indexOf("\r\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            state.messagesHeld += 1; // and never a reply
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === "EHLO" || command === "HELO") {
          if (stallAt !== "ehlo") socket.write("250 stall.test\r\n");
        } else if (command === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (command === "QUIT") {
          socket.end("221 bye\r\n");
        } else {
          socket.write("250 OK\r\n");
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  state.port = (server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}
