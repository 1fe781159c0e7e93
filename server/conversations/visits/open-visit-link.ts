/**
 * Opening the client's signed Confirm / Need to change link (GET /visit-reply, issue 50): only
 * its token is checked and nothing changes (mail scanners follow links). A genuine, current link
 * shows the visit's time in the client's zone and the one button; any other, only why it cannot
 * be used (nothing of the visit).
 */
import { eq } from "drizzle-orm";
import { VISIT_ANSWERS } from "#core/visits.ts";
import { gigs, leadPurchases, threads, users, diggerProfiles } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { readerTime } from "../../reader-time.ts";
import type { VisitLinkAnswer } from "../../mail/visit-answer-token.ts";
import { VISIT_LINK, visitLinkAnswerOf, visitOfLink } from "./visit-link.ts";

/** What the page shows: the visit to answer, or why the link cannot be used. */
export type VisitLinkPage =
  | { token: string; answer: VisitLinkAnswer; visit: { gigTitle: string; handle: string; window: string; confirmed: boolean }; refused: null }
  | { token: ""; answer: VisitLinkAnswer; visit: null; refused: string };

export const openVisitLink = defineOperation({
  access: VISIT_LINK,
  async run({ services: { db, config }, url }): Promise<VisitLinkPage> {
    const token = url.searchParams.get("token") ?? "";
    const answer = visitLinkAnswerOf(url.searchParams.get("answer"));
    try {
      if (!answer) throw new AppError("invalid_input", VISIT_ANSWERS.linkInvalid);
      const visit = await visitOfLink(db, config.authSecret, token);
      const [seen] = await db
        .select({ gigTitle: gigs.title, handle: diggerProfiles.handle, zone: users.timeZone })
        .from(threads)
        .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
        .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
        .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
        .innerJoin(users, eq(users.id, threads.clientId))
        .where(eq(threads.id, visit.threadId));
      if (!seen) throw new AppError("invalid_input", VISIT_ANSWERS.linkInvalid);
      // In the client's zone: the link is theirs, whoever opens it.
      const window = readerTime(seen.zone, config).visitWindow(visit.startsAt, visit.windowMinutes);
      return { token, answer, visit: { gigTitle: seen.gigTitle, handle: seen.handle, window, confirmed: visit.clientConfirmedAt !== null }, refused: null };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Nothing of the link is echoed back: only why it cannot be used.
      return { token: "", answer: answer ?? "confirm", visit: null, refused: error.message };
    }
  },
});
