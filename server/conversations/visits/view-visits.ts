/**
 * /visits (issue 50): the signed-in user's own visits (a digger's of their leads, a client's of
 * their gigs, both for someone who is both), upcoming first, then past, 20 a page
 * (visit-list.ts), every time written in the reader's zone.
 */
import { VISIT_TEXTS } from "#core/visits.ts";
import { signedIn } from "../../guards.ts";
import { defineOperation } from "../../operation.ts";
import { readerTime } from "../../reader-time.ts";
import { visitListPage } from "./visit-list.ts";

export const viewVisits = defineOperation({
  access: signedIn({ signedOut: { message: VISIT_TEXTS.signedOut } }),
  async run({ services: { db, config }, user, url }) {
    return { page: await visitListPage(db, user.id, url.searchParams.get("cursor"), readerTime(user.timeZone, config)) };
  },
});
