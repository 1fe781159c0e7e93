/**
 * The console's Verification queue (issue 22): the proofs awaiting a decision, and the digger
 * list (profiles found by handle or e-mail) where the Verified badge is granted or removed
 * (set-verified-badge.ts).
 */
import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerProfiles, users } from "../db/schema.ts";
import { containsText, SEARCH_MAX_LENGTH } from "../db/search.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { userSearchColumn } from "./user-search.ts";
import { operator } from "../guards.ts";
import { formatDate } from "#core/dates.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { pendingProofs } from "./credential-review.ts";

export interface BadgeRow {
  id: string;
  handle: string;
  userId: string;
  email: string;
  verified: boolean;
  hidden: boolean;
}

function diggerSearchText(searchParams: URLSearchParams): string {
  return (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

/** Digger profiles, newest first, or those whose handle, name or e-mail contains `q` (trigram indexes of migration 0022). */
async function searchDiggerProfiles(db: Database, q: string, cursorParam: string | null): Promise<Page<BadgeRow>> {
  const conditions: Array<SQL | undefined> = [];
  if (q) conditions.push(or(containsText(diggerProfiles.handle, q), containsText(userSearchColumn, q)));
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  if (cursor) {
    conditions.push(sql`(${diggerProfiles.createdAt}, ${diggerProfiles.id}) < (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)`);
  }
  const rows = await db
    .select({
      id: diggerProfiles.id,
      at: exactTimestamp(diggerProfiles.createdAt),
      handle: diggerProfiles.handle,
      userId: users.id,
      email: users.email,
      verified: diggerProfiles.verified,
      hidden: sql<boolean>`${diggerProfiles.hiddenAt} is not null`,
    })
    .from(diggerProfiles)
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(...conditions))
    .orderBy(desc(diggerProfiles.createdAt), desc(diggerProfiles.id))
    .limit(PAGE_SIZE + 1);
  const page = toPage(rows, PAGE_SIZE, (row) => [row.at, row.id]);
  return { nextCursor: page.nextCursor, items: page.items.map(({ at: _at, ...row }) => row) };
}

/** The Verification queue: the proofs awaiting a decision, and the search of digger profiles. */
export const verificationPage = defineOperation({
  access: operator,
  async run({ services, user, url }) {
    const { searchParams } = url;
    const q = diggerSearchText(searchParams);
    const [pending, page] = await Promise.all([
      pendingProofs(services.db, searchParams.get("proofs")),
      searchDiggerProfiles(services.db, q, searchParams.get("cursor")),
    ]);
    // The day each proof was sent, in the operator's zone (issue 47); the stated expiry is a calendar day.
    const time = readerTime(user.timeZone, services.config);
    const items = pending.items.map((proof) => ({ ...proof, detailText: `Expires ${formatDate(proof.statedExpiry)} (as stated); sent ${time.date(proof.createdAt)}` }));
    return { q, proofs: { ...pending, items }, page };
  },
});
