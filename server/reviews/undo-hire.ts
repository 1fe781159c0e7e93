/** Undo Mark as Hired, in the Diggers dialog of /my-gigs (issue 20): the form's `diggerId` (hires.ts). */
import { hireChoiceSchema } from "#core/reviews.ts";
import { defineOperation } from "../operation.ts";
import { GIG_BUYERS_ACCESS } from "./gig-buyers.ts";
import { setHired } from "./hires.ts";

export const unhireDigger = defineOperation({
  access: GIG_BUYERS_ACCESS,
  input: hireChoiceSchema,
  run: ({ services, user, params, input }) => setHired(services, user.id, params.gigId ?? "", input.diggerId ?? null, false),
});
