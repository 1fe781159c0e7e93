/**
 * What the client's signed Confirm / Need to change link's two verbs share (issue 50;
 * open-visit-link.ts, the page; answer-visit-link.ts, the answer): who may use it (anyone: the
 * token names the visit and is signed for its client, mail/visit-answer-token.ts), the answers it
 * names, and the visit of a genuine, current token. What a refused link says names nothing of
 * the visit: a forged or mangled token, another visit's, or one signed before the visit changed.
 */
import { eq } from "drizzle-orm";
import { VISIT_ANSWERS } from "#core/visits.ts";
import type { Database, Transaction } from "../../db/client.ts";
import { visits } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { anyone, withRequest } from "../../guards.ts";
import { verifyVisitAnswerToken, visitOfAnswerToken, type VisitLinkAnswer } from "../../mail/visit-answer-token.ts";

/** No sign-in needed: the token names the visit and its client; the operations learn the request's logger. */
export const VISIT_LINK = withRequest(anyone);

/** The link's answer (`answer=`), or null for anything else. */
export const visitLinkAnswerOf = (value: unknown): VisitLinkAnswer | null => (value === "confirm" || value === "change" ? value : null);

type Visit = typeof visits.$inferSelect;

/**
 * The visit a link's token names, when the token is genuine (signed for this visit and its
 * client), the visit has not changed since it was signed, is not cancelled and its window has not
 * opened; otherwise the refusal, in VISIT_ANSWERS' words. With a transaction, the visit is locked
 * (the answer's own check, then its change, see one state).
 */
export async function visitOfLink(db: Database | Transaction, secret: string, token: unknown, { lock = false } = {}): Promise<Visit> {
  const named = visitOfAnswerToken(token);
  const invalid = () => new AppError("invalid_input", VISIT_ANSWERS.linkInvalid);
  if (!named) throw invalid();
  const query = db.select().from(visits).where(eq(visits.id, named.visitId));
  const [visit] = lock ? await query.for("update") : await query;
  if (!visit || !verifyVisitAnswerToken(secret, token as string, visit)) throw invalid();
  // A cancellation raises the sequence too: it is told as what it is, not as an old link.
  if (visit.status === "cancelled") throw new AppError("conflict", VISIT_ANSWERS.cancelled);
  if (named.sequence !== visit.sequence) throw new AppError("conflict", VISIT_ANSWERS.linkOld);
  if (visit.startsAt.getTime() <= Date.now()) throw new AppError("conflict", VISIT_ANSWERS.started);
  return visit;
}
