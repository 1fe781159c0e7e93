/** /reference-requests, the page: the digger's reference contact requests, newest first, a page at a time. */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerReferences, referenceContactRequests, users } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { REFERENCE_REQUESTS } from "./access.ts";

export interface ReferenceRequestRow {
  id: string;
  clientName: string;
  referenceName: string;
  status: "pending" | "approved" | "rejected";
  createdAt: string;
}

/** The digger's requests, newest first, a page at a time. */
async function listReferenceRequests(db: Database, diggerId: string, cursor: string | null): Promise<Page<ReferenceRequestRow>> {
  const q = referenceContactRequests;
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const rows = await db
    .select({
      id: q.id,
      clientName: users.name,
      referenceName: diggerReferences.referenceName,
      status: q.status,
      createdAt: exactTimestamp(q.createdAt),
    })
    .from(q)
    .innerJoin(users, eq(users.id, q.clientId))
    .innerJoin(diggerReferences, eq(diggerReferences.id, q.referenceId))
    .where(
      and(
        eq(q.diggerId, diggerId),
        after ? sql`(${q.createdAt}, ${q.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(q.createdAt), desc(q.id))
    .limit(PAGE_SIZE + 1);
  return toPage<ReferenceRequestRow>(rows, PAGE_SIZE, (row) => [row.createdAt, row.id]);
}

/** /reference-requests, the page: the digger's requests, a page at a time. */
export const referenceRequestsPage = defineOperation({
  access: REFERENCE_REQUESTS,
  async run({ services, user, diggerId, url }) {
    const page = await listReferenceRequests(services.db, diggerId, url.searchParams.get("cursor"));
    // Each request's day in the digger's zone (issue 47).
    const time = readerTime(user.timeZone, services.config);
    return { ...page, items: page.items.map((row) => ({ ...row, createdAtText: time.date(row.createdAt) })) };
  },
});
