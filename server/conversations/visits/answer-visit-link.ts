/**
 * The client's answer through the 24-hour reminder's signed link (POST /visit-reply, issue 50):
 * Confirm ('Client confirmed' on the digger's card) or Need to change (the digger is told),
 * without signing in, through the same functions as the thread's buttons (client-answers.ts).
 * The visit is locked and the token checked again in the answer's transaction: a link signed
 * before a move, for a cancelled visit or one whose window has opened changes nothing.
 */
import { z } from "zod";
import { VISIT_ANSWERS, VISIT_TEXTS } from "#core/visits.ts";
import { defineOperation } from "../../operation.ts";
import { confirmVisit, requestVisitChange } from "./client-answers.ts";
import { VISIT_LINK, visitLinkAnswerOf, visitOfLink } from "./visit-link.ts";

const linkInput = z.object({
  token: z.unknown(),
  answer: z.unknown().transform((value, ctx) => visitLinkAnswerOf(value) ?? (ctx.addIssue({ code: "custom", message: VISIT_ANSWERS.linkInvalid }), z.NEVER)),
});

/** The address's value of each field first (the link as opened), the form's otherwise. */
function linkFields(form: FormData, url: URL): Record<string, unknown> {
  return { token: url.searchParams.get("token") ?? form.get("token"), answer: url.searchParams.get("answer") ?? form.get("answer") };
}

export const answerVisitLink = defineOperation({
  access: VISIT_LINK,
  input: linkInput,
  fields: linkFields,
  async run({ services: { db, config, emit }, logger, input: { token, answer } }): Promise<string> {
    await db.transaction(async (tx) => {
      const visit = await visitOfLink(tx, config.authSecret, token, { lock: true });
      if (answer === "confirm") await confirmVisit(tx, emit, visit.id);
      else await requestVisitChange(tx, emit, visit.id);
    });
    logger.info({ answer }, "visit answered by its signed link");
    return answer === "confirm" ? VISIT_TEXTS.confirmed : VISIT_TEXTS.changeAsked;
  },
});
