/**
 * This process's open live streams (docs/decisions/0040-live-updates.md). The hub listens on
 * the bus's `live` channel (one LISTEN connection per process, however many streams are open)
 * and writes each event to the open streams of the users it names, as Server-Sent Events: an
 * `id:` per event (counted per stream, so that it says nothing of other users' events), the
 * event's kind as its name and its ids as data. A stream starts with a
 * `ready` event, so that a browser that reconnects always sends Last-Event-ID; it is told to
 * `resync` (re-read its page's data) when it reconnects, when it passes the time its data was
 * read and an event for its user may have come since, and whenever the bus listens again
 * after a break. Heartbeat comments keep it open through proxies, and at each one the session
 * is looked up again: a signed-out, revoked or suspended session's stream ends.
 */
import { Gauge } from "prom-client";
import type { Bus } from "../bus.ts";
import type { Logger } from "../logger.ts";
import type { Metrics } from "../metrics.ts";
import { LIVE_CHANNEL, parseLivePayload } from "./publish.ts";

/**
 * A user's open streams in one process: a browser opens one per tab on /messages pages, and
 * holds at most 6 connections to a host over HTTP/1.1. Per process, not across the servers: what
 * the cap protects is this process's memory and sockets (with the total, `maxStreams`); a count
 * shared through the database would cost a write per stream and leak when a process dies, to
 * keep one account from holding 6 on each server, which costs each server no more (decision 0055).
 */
export const STREAMS_PER_USER = 6;
/** How long the hub remembers that a user had an event, for `since`. */
const REMEMBER_MS = 10 * 60_000;
/** Clocks of two servers may differ by this much; a `since` this close to an event resyncs. */
const CLOCK_SKEW_MS = 2_000;
/** A stream whose reader has left this many chunks unread is dropped (a client that stopped reading). */
const MAX_UNREAD_CHUNKS = 256;
/**
 * A stream closed to make room waits this long (spread) before its browser reconnects: coming
 * back at once, it would close another at once (the attacker's next stream, mostly, being of
 * the largest holder), and an honest page missed nothing, since it resyncs when it is back.
 */
const EVICTED_RETRY_MS = 10_000;

interface OpenOptions {
  /** The browser reconnected (it sent Last-Event-ID): it may have missed events. */
  reconnected: boolean;
  /** When the page's data was read (ms since the epoch), if it said. */
  since?: number;
  /** The client's network (security/network.ts `networkOf`), when the per-network cap counts it. */
  network?: string;
  /** Whether the stream's session still holds (looked up at each heartbeat). */
  stillSignedIn(): Promise<boolean>;
}

/**
 * Refused: "too-many" of this user's streams here, "closing" at shutdown. A full process or
 * network never refuses: it closes an older stream of the largest holder instead (`open`).
 */
type OpenResult = { stream: ReadableStream<Uint8Array> } | { refused: "too-many" | "closing" };

export interface LiveHub {
  /** Listens on the bus (once; the app calls it when it mounts the stream). */
  start(): void;
  /**
   * A stream of this user's events. Past `maxStreamsPerNetwork` of its network, the oldest stream
   * of the network's account with the most streams there is closed first; past `maxStreams`, the
   * oldest of the account or network with the most streams in the process: whoever holds the
   * most makes room, and a newcomer is never refused for what others hold.
   */
  open(userId: string, options: OpenOptions): OpenResult;
  /** Ends every open stream and refuses new ones (shutdown). */
  closeAll(): void;
  /** Open streams in this process. */
  readonly size: number;
}

interface Stream {
  readonly userId: string;
  readonly network: string | undefined;
  /** Writes an event with this stream's next id. */
  send(name: string, data: string): void;
  write(text: string): void;
  end(): void;
}

/** The oldest stream of the largest of these groups (each in the order its streams opened). */
function oldestOfLargest(groups: Iterable<ReadonlySet<Stream>>): Stream | undefined {
  let largest: ReadonlySet<Stream> | undefined;
  for (const group of groups) if (!largest || group.size > largest.size) largest = group;
  if (largest) for (const stream of largest) return stream;
  return undefined;
}

/** Streams grouped by a key (a user, a network), each group in the order its streams were added. */
function addTo(groups: Map<string, Set<Stream>>, key: string, stream: Stream) {
  const group = groups.get(key) ?? new Set<Stream>();
  groups.set(key, group.add(stream));
}
function removeFrom(groups: Map<string, Set<Stream>>, key: string, stream: Stream) {
  const group = groups.get(key);
  if (!group) return;
  group.delete(stream);
  if (group.size === 0) groups.delete(key);
}

export function createLiveHub({
  bus,
  metrics,
  logger,
  heartbeatMs,
  maxStreams,
  maxStreamsPerNetwork,
}: {
  bus: Bus;
  metrics: Metrics;
  logger: Logger;
  heartbeatMs: number;
  /** Open streams in this process at most, all users together (LIVE_MAX_STREAMS). */
  maxStreams: number;
  /** Open streams in this process at most from one network (LIVE_MAX_STREAMS_PER_NETWORK). */
  maxStreamsPerNetwork: number;
}): LiveHub {
  const log = logger.child({ component: "live" });
  const encoder = new TextEncoder();
  const byUser = new Map<string, Set<Stream>>();
  const byNetwork = new Map<string, Set<Stream>>();
  /** When each user last had an event, here. */
  const lastEventAt = new Map<string, number>();
  /** Since when the bus has listened without a break: events before it may not have been heard. */
  let listeningSince = Number.POSITIVE_INFINITY;
  let size = 0;
  let closing = false;
  let started = false;
  let pruning: NodeJS.Timeout | undefined;
  let lastFullWarning = 0;
  /** Once a minute at most: while it is full, every newcomer closes another stream. */
  const warnFull = (what: string, limit: number) => {
    if (Date.now() - lastFullWarning < 60_000) return;
    lastFullWarning = Date.now();
    log.warn({ limit }, `live streams: ${what} is full; the oldest stream of the largest holder is closed for each newcomer`);
  };
  /** Closes a stream to make room; its browser comes back later (EVICTED_RETRY_MS) and resyncs. */
  const evict = (stream: Stream | undefined) => {
    if (!stream) return;
    stream.write(`retry: ${EVICTED_RETRY_MS + Math.floor(Math.random() * EVICTED_RETRY_MS)}\n\n`);
    stream.end();
  };

  new Gauge({
    name: "live_streams",
    help: "Live update streams (Server-Sent Events) open in this process.",
    registers: [metrics.registry],
    collect() {
      this.set(size);
    },
  });

  const everyStream = () => [...byUser.values()].flatMap((set) => [...set]);

  const deliver = (payload: string) => {
    const notice = parseLivePayload(payload);
    if (!notice) return log.warn({ payload: payload.slice(0, 200) }, "not a live notice");
    const now = Date.now();
    const { kind: _kind, ...ids } = notice.e;
    const data = JSON.stringify(ids);
    for (const userId of notice.u) {
      lastEventAt.set(userId, now);
      for (const stream of byUser.get(userId) ?? []) stream.send(notice.e.kind, data);
    }
  };

  /** Whether an event for this user may have come after `since` without the page seeing it. */
  const missedSince = (userId: string, since: number) => {
    const now = Date.now();
    if (since < now - REMEMBER_MS + CLOCK_SKEW_MS || since < listeningSince + CLOCK_SKEW_MS) return true;
    return (lastEventAt.get(userId) ?? 0) >= since - CLOCK_SKEW_MS;
  };

  return {
    get size() {
      return size;
    },
    start() {
      if (started) return;
      started = true;
      bus.subscribe(LIVE_CHANNEL, {
        message: deliver,
        resync() {
          listeningSince = Date.now();
          for (const stream of everyStream()) stream.send("resync", "{}");
        },
      });
      pruning = setInterval(() => {
        const old = Date.now() - REMEMBER_MS;
        for (const [userId, at] of lastEventAt) if (at < old) lastEventAt.delete(userId);
      }, 60_000);
      pruning.unref();
    },
    open(userId, { reconnected, since, network, stillSignedIn }) {
      if (closing) return { refused: "closing" };
      if ((byUser.get(userId)?.size ?? 0) >= STREAMS_PER_USER) return { refused: "too-many" };
      const ofNetwork = network === undefined ? undefined : byNetwork.get(network);
      if (ofNetwork && ofNetwork.size >= maxStreamsPerNetwork) {
        warnFull("a network", maxStreamsPerNetwork);
        const byAccount = new Map<string, Set<Stream>>();
        for (const stream of ofNetwork) addTo(byAccount, stream.userId, stream);
        evict(oldestOfLargest(byAccount.values()));
      }
      if (size >= maxStreams) {
        warnFull("this process (LIVE_MAX_STREAMS)", maxStreams);
        evict(oldestOfLargest([...byUser.values(), ...byNetwork.values()]));
      }

      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let ended = false;
      let lastId = 0;
      const frame = (name: string, data: string) => `id: ${++lastId}\nevent: ${name}\ndata: ${data}\n\n`;
      const timer: { heartbeat?: NodeJS.Timeout } = {};
      const stream: Stream = {
        userId,
        network,
        send(name, data) {
          stream.write(frame(name, data));
        },
        write(text) {
          if (ended) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            return stream.end();
          }
          if ((controller.desiredSize ?? 0) < -MAX_UNREAD_CHUNKS) stream.end();
        },
        end() {
          if (ended) return;
          ended = true;
          clearInterval(timer.heartbeat);
          removeFrom(byUser, userId, stream);
          if (network !== undefined) removeFrom(byNetwork, network, stream);
          size -= 1;
          try {
            controller.close();
          } catch {
            // already cancelled by its reader
          }
        },
      };
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
        },
        cancel() {
          stream.end();
        },
      });
      addTo(byUser, userId, stream);
      if (network !== undefined) addTo(byNetwork, network, stream);
      size += 1;

      // A browser waits `retry` before reconnecting: spread, so that a server's shutdown does
      // not bring all its streams back to the others in the same instant.
      stream.write(`retry: ${1_000 + Math.floor(Math.random() * 2_000)}\n` + frame("ready", "{}"));
      if (reconnected || (since !== undefined && missedSince(userId, since))) stream.send("resync", "{}");
      timer.heartbeat = setInterval(() => {
        stream.write(": heartbeat\n\n");
        stillSignedIn().then(
          (yes) => {
            if (!yes) stream.end();
          },
          // The database is away: it cannot say, and the stream carries nothing meanwhile.
          () => {},
        );
      }, heartbeatMs);
      timer.heartbeat.unref();
      return { stream: body };
    },
    closeAll() {
      closing = true;
      clearInterval(pruning);
      for (const stream of everyStream()) stream.end();
    },
  };
}
