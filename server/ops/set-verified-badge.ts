/**
 * The Verified badge (issue 22): an operator checked the digger's identity. Only this console
 * action sets digger_profiles.verified, with a note, in one transaction with its audit row
 * (profile.verify / profile.unverify).
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { operatorReason } from "#core/ops-users.ts";
import { diggerProfiles } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

const VERIFIED_BADGE_MESSAGES = {
  granted: "Verified badge granted.",
  removed: "Verified badge removed.",
  already: "This profile already has the Verified badge.",
  notVerified: "This profile does not have the Verified badge.",
} as const;

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
