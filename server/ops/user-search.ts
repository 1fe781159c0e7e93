/**
 * The console's Users list (/ops/users): every account, newest first, or those whose name,
 * e-mail or digger handle contains the search text. Each part of the match has its own
 * trigram index (users_search_trgm on name and e-mail, digger_profiles_handle_trgm on the
 * handle, migration 0024); the matches are then sorted by users_newest_idx's order.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { USER_SEARCH_MAX, type UserListItem } from "#core/ops-users.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, users } from "../db/schema.ts";
import { containsText } from "../db/search.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_USER_ID_CURSOR, toPage, type Page } from "../pagination.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";

/** The search text from the address: trimmed and cut to its longest. */
function userSearchText(searchParams: URLSearchParams): string {
  return (searchParams.get("q") ?? "").trim().slice(0, USER_SEARCH_MAX);
}

/** The expression users_search_trgm indexes: a search must use it as written there. */
export const userSearchColumn = sql`lower(${users.name} || ' ' || ${users.email})`;

function matching(q: string): SQL {
  return sql`${users.id} in (
    select ${users.id} from ${users} where ${containsText(userSearchColumn, q)}
    union
    select ${diggerProfiles.userId} from ${diggerProfiles} where ${containsText(diggerProfiles.handle, q)})`;
}

async function searchUsers(db: Database, q: string, cursorParam: string | null): Promise<Page<UserListItem>> {
  const conditions: SQL[] = [];
  if (q) conditions.push(matching(q));
  const cursor = decodeCursor(cursorParam, TIMESTAMP_USER_ID_CURSOR);
  if (cursor) {
    conditions.push(sql`(${users.createdAt}, ${users.id}) < (${cursor[0]}::timestamptz, ${cursor[1]})`);
  }
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      userType: users.userType,
      handle: diggerProfiles.handle,
      at: exactTimestamp(users.createdAt),
      createdAt: users.createdAt,
      operatorSince: users.operatorSince,
      suspendedAt: users.suspendedAt,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, users.id))
    .where(and(...conditions))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(PAGE_SIZE + 1);
  const page = toPage(rows, PAGE_SIZE, (row) => [row.at, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      userType: row.userType,
      handle: row.handle,
      createdAt: row.createdAt.toISOString(),
      operator: row.operatorSince !== null,
      suspended: row.suspendedAt !== null,
      deleted: row.deletedAt !== null,
    })),
  };
}

/** The Users section: the search and a page of its accounts. */
export const usersPage = defineOperation({
  access: operator,
  async run({ services, user, url }) {
    const q = userSearchText(url.searchParams);
    const page = await searchUsers(services.db, q, url.searchParams.get("cursor"));
    // Days in the operator's zone (issue 47).
    const time = readerTime(user.timeZone, services.config);
    return { q, page: { ...page, items: page.items.map((row) => ({ ...row, createdAtText: time.date(row.createdAt) })) } };
  },
});
