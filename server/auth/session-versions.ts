/**
 * The version of Better Auth's signed cookie cache (issue 35, decision 0053): a signed-in
 * request takes its session and user from the `session_data` cookie instead of the database
 * only while this process has heard of no change to that user's sessions or user row since the
 * cookie was written. Migration 0041's triggers send the user's id on the bus's
 * `session_version` channel at the commit of any such change (a sign-out, a revoked session, a
 * suspension, a deletion, an operator's grant or removal, a new name); each process counts
 * them per user, and the count is the version the cookie must carry.
 *
 * Fail-safe in every doubt, where a mismatch costs only a database read (and a fresh cookie):
 * - while the bus does not listen, no version matches;
 * - when it listens again (notices may have been missed), a new generation makes every older
 *   cookie stale;
 * - a request during which any change was heard neither trusts nor writes a usable cookie
 *   (`track`: a session read from the database before a revocation must not be cached as current);
 * - the table is bounded: past `MAX_USERS` entries it starts again with a new generation, as
 *   it does when a TRUNCATE tells of every user ('*').
 * Versions are this process's own: with several processes a cookie written by one is read
 * from the database (and rewritten) by another.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Bus } from "../bus.ts";

const SESSION_VERSION_CHANNEL = "session_version";
const MAX_USERS = 100_000;
const EVERY_USER = "*";

export interface SessionVersions {
  /** The version a cookie of `userId` must carry now (Better Auth's `cookieCache.version`). */
  version(userId: string): string;
  /** Runs `work` (a request) so that a change heard meanwhile makes its version unusable. */
  track<T>(work: () => T): T;
}

export function createSessionVersions(bus: Bus): SessionVersions {
  const counts = new Map<string, number>();
  /** Every change heard, for `track`. */
  let heard = 0;
  let generation = randomUUID();
  let ready = false;
  const requests = new AsyncLocalStorage<number>();
  bus.subscribe(SESSION_VERSION_CHANNEL, {
    message(userId) {
      heard += 1;
      // A TRUNCATE of sessions or users (migration 0041): every user's cookies at once.
      if (userId === EVERY_USER || counts.size >= MAX_USERS) {
        counts.clear();
        generation = randomUUID();
      }
      counts.set(userId, (counts.get(userId) ?? 0) + 1);
    },
    resync() {
      heard += 1;
      counts.clear();
      generation = randomUUID();
      ready = true;
    },
  });
  return {
    version(userId) {
      const started = requests.getStore();
      if (!ready || !bus.listening || (started !== undefined && started !== heard)) return `none-${randomUUID()}`;
      return `${generation}.${counts.get(userId) ?? 0}`;
    },
    track: (work) => requests.run(heard, work),
  };
}
