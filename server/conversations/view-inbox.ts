/**
 * The inbox (/messages): the signed-in user's threads by latest activity, 20 a page. `live`:
 * whether the page opens a live stream (a confirmed account with a thread; the others get
 * none, server/live/admission.ts).
 */
import { mayHoldLiveStreams } from "../live/admission.ts";
import { readerTime } from "../reader-time.ts";
import { defineOperation } from "../operation.ts";
import { MESSAGES } from "./access.ts";
import { inboxPage } from "./inbox.ts";

export const inbox = defineOperation({
  access: MESSAGES,
  async run({ services: { db, config }, user, url }) {
    // Side by side: the page and the live stream's admission are two statements, neither waits for the other.
    const [page, live] = await Promise.all([inboxPage(db, user.id, url.searchParams.get("cursor"), readerTime(user.timeZone, config)), mayHoldLiveStreams(db, user.id)]);
    return { page, live, since: Date.now() };
  },
});
