/**
 * The Verified badge (issue 22): an operator checked the digger's identity. Only this console
 * action sets digger_profiles.verified, with a note, in one transaction with its audit row
 * (profile.verify / profile.unverify). The digger list finds profiles by handle or e-mail.
 */
import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { operatorReason } from "#core/ops-users.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, users } from "../db/schema.ts";
import { containsText, SEARCH_MAX_LENGTH } from "../db/search.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { userSearchColumn } from "./user-search.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { pendingProofs } from "./credential-review.ts";

export const VERIFIED_BADGE_MESSAGES = {
  granted: "Verified badge granted.",
  removed: "Verified badge removed.",
  already: "This profile already has the Verified badge.",
  notVerified: "This profile does not have the Verified badge.",
} as const;

export interface BadgeRow {
  id: string;
  handle: string;
  userId: string;
  email: string;
  verified: boolean;
  hidden: boolean;
}

export function diggerSearchText(searchParams: URLSearchParams): string {
  return (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

/** Digger profiles, newest first, or those whose handle, name or e-mail contains `q` (trigram indexes of migration 0022). */
export async function searchDiggerProfiles(db: Database, q: string, cursorParam: string | null): Promise<Page<BadgeRow>> {
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

const badgeSchema = z.object({
  intent: z.enum(["grant", "remove"], { error: "Unknown action" }),
  diggerId: z.uuid({ error: "Profile not found" }),
  reason: operatorReason(),
});

export const setVerifiedBadge = defineOperation({
  access: operator,
  input: badgeSchema,
  async run({ services, user: operator, input: { intent, diggerId, reason } }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [profile] = await tx
        .select({ id: diggerProfiles.id, userId: diggerProfiles.userId, verified: diggerProfiles.verified })
        .from(diggerProfiles)
        .where(eq(diggerProfiles.id, diggerId))
        .for("no key update");
      if (!profile) throw new AppError("not_found", "Profile not found");
      refuseOwnRecord(operator.id, profile.userId);
      const grant = intent === "grant";
      if (profile.verified === grant) throw new AppError("conflict", grant ? VERIFIED_BADGE_MESSAGES.already : VERIFIED_BADGE_MESSAGES.notVerified);
      await tx.update(diggerProfiles).set({ verified: grant }).where(eq(diggerProfiles.id, profile.id));
      await services.emit(tx, { kind: "profile.verified-badge", operatorId: operator.id, profileId: profile.id, userId: profile.userId, granted: grant, reason });
      return { success: grant ? VERIFIED_BADGE_MESSAGES.granted : VERIFIED_BADGE_MESSAGES.removed };
    });
  },
});

/** The Verification queue: the proofs awaiting a decision, and the search of digger profiles. */
export const verificationPage = defineOperation({
  access: operator,
  async run({ services, url }) {
    const { searchParams } = url;
    const q = diggerSearchText(searchParams);
    const [proofs, page] = await Promise.all([
      pendingProofs(services.db, searchParams.get("proofs")),
      searchDiggerProfiles(services.db, q, searchParams.get("cursor")),
    ]);
    return { q, proofs, page };
  },
});
