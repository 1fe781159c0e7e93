/**
 * The process's one bus between server processes (docs/decisions/0040-live-updates.md): a
 * notice on a channel reaches the subscribers of that channel in every process on the
 * database, this one included. On PostgreSQL it is NOTIFY, heard on ONE dedicated LISTEN
 * connection per process (`application_name` `digs-and-gigs-listener`), whatever the number
 * of channels and subscribers, reopened with backoff (0.2 s doubling to 5 s) when it drops; on
 * the embedded PGlite, PGlite's own in-process LISTEN. Either way a NOTIFY sent inside a
 * transaction is delivered at its commit, and never for a rolled-back one.
 *
 * Channels today: `page_cache` (page-cache-bus.ts), `live` (live/) and `session_version`
 * (auth/session-versions.ts, sent by migration 0041's triggers). Notices may be missed
 * while the listening connection is down: each subscriber's `resync` runs whenever it listens
 * (again), so that it can catch up from the database.
 *
 * A listening connection can die without a word (a partition, a NAT that drops the flow, a
 * half-open socket): no error, no end, and nothing heard. So, on PostgreSQL, the bus sends a
 * heartbeat of its own every `heartbeatMs` through the pool on the `bus_heartbeat` channel and
 * expects to hear it on its listening connection within `heartbeatTimeoutMs`; when it does
 * not, it stops listening (`listening` false), drops the connection and opens a new one as
 * after an error (docs/decisions/0056-bus-heartbeat.md).
 */
import { randomUUID } from "node:crypto";
import type { Client } from "pg";
import type { DatabaseDriver } from "./db/client.ts";
import type { Logger } from "./logger.ts";

/** The listening connection's name in pg_stat_activity. */
export const LISTENER_NAME = "digs-and-gigs-listener";
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7999;
const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** TCP keepalive probes from this idle: the OS default waits two hours. */
const KEEPALIVE_DELAY_MS = 30_000;
const CHANNEL = /^[a-z_]+$/;
/** The bus's own channel, heard by the bus and no subscriber. */
const HEARTBEAT_CHANNEL = "bus_heartbeat";

export interface BusTimings {
  /** How often the bus checks that it hears (BUS_HEARTBEAT_SECONDS). */
  heartbeatMs: number;
  /** How long it waits to hear its heartbeat before it takes its connection for dead (BUS_HEARTBEAT_TIMEOUT_SECONDS). */
  heartbeatTimeoutMs: number;
}

interface BusSubscriber {
  /** A notice on the channel, from any process (this one's too). */
  message(payload: string): void;
  /** The bus listens (again): notices may have been missed while it did not. */
  resync?(): void;
}

export interface Bus {
  /** Listens on `channel` (the first subscription opens the listening connection). Returns the unsubscribe. */
  subscribe(channel: string, subscriber: BusSubscriber): () => void;
  /**
   * Sends a notice outside any transaction: through the listening connection while it is up (it
   * is idle, where the pool's connections may all be busy under load), else through the pool.
   * Throws when it could not be sent.
   */
  send(channel: string, payload: string): Promise<void>;
  /** Whether the bus listens now (false while its connection is being reopened). */
  readonly listening: boolean;
  /** Stops listening and sending. */
  close(): Promise<void>;
}

function assertPayload(payload: string) {
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`a notice of ${Buffer.byteLength(payload)} bytes: at most ${MAX_PAYLOAD_BYTES}`);
}

function checkChannel(channel: string) {
  // Channels are identifiers in LISTEN statements: never from input, but checked anyway.
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
}

/** The subscribers of each channel, and running them. */
function subscriberTable() {
  const channels = new Map<string, Set<BusSubscriber>>();
  return {
    channels,
    add(channel: string, subscriber: BusSubscriber) {
      let set = channels.get(channel);
      const added = !set;
      if (!set) channels.set(channel, (set = new Set()));
      set.add(subscriber);
      return { added, remove: () => void set.delete(subscriber) };
    },
    deliver(channel: string, payload: string) {
      for (const subscriber of channels.get(channel) ?? []) subscriber.message(payload);
    },
    resync() {
      for (const set of channels.values()) for (const subscriber of set) subscriber.resync?.();
    },
  };
}

export function createBus(driver: DatabaseDriver, logger: Logger, timings: BusTimings): Bus {
  return driver.kind === "postgres" ? postgresBus(driver, logger, timings) : pgliteBus(driver.client);
}

function pgliteBus(client: Extract<DatabaseDriver, { kind: "pglite" }>["client"]): Bus {
  const table = subscriberTable();
  const unlisten: Array<Promise<() => Promise<void>>> = [];
  let closed = false;
  return {
    subscribe(channel, subscriber) {
      checkChannel(channel);
      const { added, remove } = table.add(channel, subscriber);
      if (closed) return remove;
      if (added) {
        const listening = client.listen(channel, (payload) => table.deliver(channel, payload));
        unlisten.push(listening);
        void listening.then(() => subscriber.resync?.());
      } else {
        subscriber.resync?.();
      }
      return remove;
    },
    async send(channel, payload) {
      assertPayload(payload);
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    get listening() {
      return !closed;
    },
    async close() {
      closed = true;
      // The database closes after the bus: leave its listeners as they are if it already did.
      await Promise.all(unlisten.map((u) => u.then((f) => f()).catch(() => {})));
    },
  };
}

function postgresBus(driver: Extract<DatabaseDriver, { kind: "postgres" }>, logger: Logger, timings: BusTimings): Bus {
  const log = logger.child({ component: "bus" });
  // Not the process id: tests run several servers in one process.
  const id = randomUUID();
  let beats = 0;
  const table = subscriberTable();
  let closed = false;
  /** The connection, while it listens on every channel. */
  let listener: Client | undefined;
  /** The connection being opened or in use. */
  let client: Client | undefined;
  let started = false;
  let heardBefore = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_MIN_MS;

  const listen = async () => {
    retry = undefined;
    const { Client } = await import("pg");
    if (closed) return;
    const current = new Client({
      connectionString: driver.url,
      application_name: LISTENER_NAME,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    });
    client = current;
    let lost = false;
    /** The heartbeat awaited, and the timers that send the next one and give up on it. */
    let awaited: string | undefined;
    let beating: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const giveUpIn = (what: string) => {
      const timer = setTimeout(() => {
        // After the socket's pending reads: when the event loop stalled past the deadline, the
        // awaited notice may be sitting there, and timers run before I/O.
        setImmediate(() => {
          if (deadline === timer) onLost(new Error(`${what} within ${timings.heartbeatTimeoutMs} ms`));
        });
      }, timings.heartbeatTimeoutMs);
      timer.unref();
      deadline = timer;
    };
    const stopDeadline = () => {
      clearTimeout(deadline);
      deadline = undefined;
    };
    const beatLater = () => {
      beating = setTimeout(beat, timings.heartbeatMs);
      beating.unref();
    };
    const beat = () => {
      if (closed || lost) return;
      const beatId = `${id}.${++beats}`;
      awaited = beatId;
      // Through the pool, as other processes' notices come: what is checked is that the server
      // still delivers to this connection. So the deadline runs from the notice's commit: a pool
      // that is slow to lend a connection under load says nothing of this one, and a send that
      // fails is tried again at the next beat.
      driver.pool.query("select pg_notify($1, $2)", [HEARTBEAT_CHANNEL, beatId]).then(
        () => {
          if (awaited === beatId && !lost && !closed) giveUpIn("bus heartbeat not heard");
        },
        () => {
          if (awaited !== beatId || lost || closed) return;
          awaited = undefined;
          beatLater();
        },
      );
    };
    const heard = (payload: string) => {
      if (payload !== awaited) return;
      awaited = undefined;
      stopDeadline();
      beatLater();
    };
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      clearTimeout(beating);
      stopDeadline();
      if (client === current) client = undefined;
      if (listener === current) listener = undefined;
      // Not end(): a silent connection would never answer its goodbye. Its queries fail now.
      current.connection.stream.destroy();
      if (closed) return;
      log.warn({ err: error, retryInMs: delay }, "bus listener lost; reconnecting");
      retry = setTimeout(() => void listen(), delay);
      retry.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    current.on("error", onLost);
    current.on("end", () => onLost());
    current.on("notification", (message) => {
      if (message.payload === undefined) return;
      if (message.channel === HEARTBEAT_CHANNEL) heard(message.payload);
      else table.deliver(message.channel, message.payload);
    });
    try {
      await current.connect();
      giveUpIn("LISTEN not answered");
      await current.query(`LISTEN ${HEARTBEAT_CHANNEL}`);
      // A live iterator: a channel subscribed meanwhile is listened on too.
      for (const channel of table.channels.keys()) await current.query(`LISTEN ${channel}`);
      stopDeadline();
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (closed || lost) return;
    if (heardBefore) log.info("bus listener back");
    heardBefore = true;
    delay = RECONNECT_MIN_MS;
    listener = current;
    beat();
    table.resync();
  };

  const send = async (channel: string, payload: string, via: Client | undefined = listener): Promise<void> => {
    try {
      await (via ?? driver.pool).query("select pg_notify($1, $2)", [channel, payload]);
    } catch (error) {
      // The listening connection just dropped: the pool, then.
      if (via) return send(channel, payload, undefined);
      throw error;
    }
  };

  return {
    subscribe(channel, subscriber) {
      checkChannel(channel);
      const { added, remove } = table.add(channel, subscriber);
      if (closed) return remove;
      if (!started) {
        started = true;
        void listen();
      } else if (added && listener) {
        // A channel added while listening: a failure here drops the connection, and the next
        // one listens on every channel (and resyncs every subscriber).
        listener.query(`LISTEN ${channel}`).then(() => subscriber.resync?.(), () => {});
      } else if (listener) {
        subscriber.resync?.();
      }
      return remove;
    },
    async send(channel, payload) {
      assertPayload(payload);
      if (closed) return;
      await send(channel, payload);
    },
    get listening() {
      return listener !== undefined;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      if (!current) return;
      // A silent connection never answers its goodbye: past the heartbeat's deadline, drop it.
      const drop = setTimeout(() => current.connection.stream.destroy(), timings.heartbeatTimeoutMs);
      await current.end().catch(() => {});
      clearTimeout(drop);
    },
  };
}
