/**
 * The inbox (/messages): the signed-in user's threads by latest activity, 20 a page. `live`:
 * whether the page opens a live stream (a confirmed account with a thread; the others get
 * none, server/live/admission.ts).
 */
import { readerTime } from "../reader-time.ts";
import { defineOperation } from "../operation.ts";
import { MESSAGES } from "./access.ts";
import { readInbox } from "./inbox.ts";

export const inbox = defineOperation({
  access: MESSAGES,
  async run({ services: { db, config }, user, url }) {
    // One statement: the page, and the live stream's admission on its rows.
    const { page, live } = await readInbox(db, user.id, url.searchParams.get("cursor"), readerTime(user.timeZone, config));
    return { page, live, since: Date.now() };
  },
});
