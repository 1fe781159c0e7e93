/**
 * Reading the audit trail: the Audit log page (filters by action, operator and affected
 * user), and a user's operator history on their console page. Newest first, a page at a time.
 */
import { and, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { isOperatorAction, type AuditEntry, type OperatorActionName } from "#core/operator-actions.ts";
import type { Database } from "../db/client.ts";
import { gigs, operatorActions, users } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_SEQ_CURSOR, toPage, type Page } from "../pagination.ts";
import { CLI_OPERATOR } from "./operators.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";

export interface AuditFilters {
  action: OperatorActionName | "";
  /** The operator's e-mail address. */
  operator: string;
  /** The affected user's e-mail address. */
  user: string;
}

const FILTER_MAX_LENGTH = 320;

function auditFilters(searchParams: URLSearchParams): AuditFilters {
  const action = searchParams.get("action") ?? "";
  const text = (name: string) => (searchParams.get(name) ?? "").trim().slice(0, FILTER_MAX_LENGTH);
  return { action: isOperatorAction(action) ? action : "", operator: text("operator"), user: text("user") };
}

const operatorUser = alias(users, "operator_user");
const subjectUser = alias(users, "subject_user");
const a = operatorActions;
const nameAndEmail = (u: typeof operatorUser | typeof subjectUser) =>
  sql<string | null>`case when ${u.id} is null then null else ${u.name} || ' <' || ${u.email} || '>' end`;
const withEmail = (column: SQL | typeof a.operatorId, email: string) =>
  sql`${column} in (select ${users.id} from ${users} where lower(${users.email}) = lower(${email}))`;

/**
 * The trail, newest first: by `created_at`, then by `seq`, the order the rows were written in
 * (two transactions can share a now()); `subjectUserId` narrows it to the actions about one user.
 */
export async function auditLog(
  db: Database,
  filters: AuditFilters & { subjectUserId?: string },
  cursor: string | null,
  size = PAGE_SIZE,
): Promise<Page<AuditEntry>> {
  const conditions: Array<SQL | undefined> = [];
  if (filters.action) conditions.push(eq(a.action, filters.action));
  if (filters.operator) conditions.push(withEmail(a.operatorId, filters.operator));
  if (filters.user) conditions.push(withEmail(sql`${a.subjectUserId}`, filters.user));
  if (filters.subjectUserId) conditions.push(eq(a.subjectUserId, filters.subjectUserId));
  const after = decodeCursor(cursor, TIMESTAMP_SEQ_CURSOR);
  if (after) {
    const [at, seq] = after;
    conditions.push(or(lt(a.createdAt, sql`${at}::timestamptz`), and(eq(a.createdAt, sql`${at}::timestamptz`), lt(a.seq, seq))));
  }
  const rows = await db
    .select({
      id: a.id,
      seq: a.seq,
      at: exactTimestamp(a.createdAt),
      createdAt: a.createdAt,
      action: a.action,
      operatorId: a.operatorId,
      operator: nameAndEmail(operatorUser),
      subjectType: a.subjectType,
      subjectId: a.subjectId,
      subjectUserId: a.subjectUserId,
      subjectUser: nameAndEmail(subjectUser),
      gigTitle: gigs.title,
      reason: a.reason,
      details: a.details,
    })
    .from(a)
    .leftJoin(operatorUser, eq(operatorUser.id, a.operatorId))
    .leftJoin(subjectUser, eq(subjectUser.id, a.subjectUserId))
    // An action on a gig links to it by its title (its subject id is then a gig's uuid).
    .leftJoin(gigs, eq(gigs.id, sql`case when ${a.subjectType} = 'gig' then ${a.subjectId}::uuid end`))
    .where(and(...conditions))
    .orderBy(desc(a.createdAt), desc(a.seq))
    .limit(size + 1);
  const page = toPage(rows, size, (row) => [row.at, row.seq]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      action: row.action as OperatorActionName,
      operator: row.operatorId === CLI_OPERATOR ? "Command line" : row.operator,
      subjectType: row.subjectType,
      subjectId: row.subjectId,
      subjectUserId: row.subjectUserId,
      subjectUser: row.subjectUser,
      gigTitle: row.gigTitle,
      reason: row.reason,
      details: row.details,
    })),
  };
}

/** The Audit log section: its filters and a page of rows. */
export const auditPage = defineOperation({
  access: operator,
  async run({ services, user, url }) {
    const filters = auditFilters(url.searchParams);
    const page = await auditLog(services.db, filters, url.searchParams.get("cursor"));
    // Each entry's time in the operator's zone (issue 47).
    const time = readerTime(user.timeZone, services.config);
    return { filters, page: { ...page, items: page.items.map((entry) => ({ ...entry, createdAtText: time.dateTime(entry.createdAt) })) } };
  },
});
