/**
 * One thread (/messages/{threadId}), for its two parties only (the 404 page for everyone else);
 * opening it marks it read, and the client's first opening is the reply guarantee's evidence
 * (open-thread.ts). Its forms are one operation each, beside their work: send-message,
 * report-message, block-other, unblock-other, send-quote, revise-quote, withdraw-quote,
 * accept-quote, decline-quote, and the visits' (visits/: propose, book, ask for other times,
 * cancel, mark, confirm, change). They share one rule, `THREAD` (a party of the thread), which the
 * route adapter applies before the page's form reader (`readMessageForm`) streams the body's
 * files to storage: a visitor's or a stranger's upload is never stored.
 */
import { addDays } from "#core/dates.ts";
import type { VisitFormState } from "#core/visit-views.ts";
import { VISIT_MAX_AHEAD_DAYS } from "#core/visits.ts";
import { readerTime } from "../reader-time.ts";
import { defineOperation } from "../operation.ts";
import { MESSAGES } from "./access.ts";
import { recordClientOpening } from "./open-thread.ts";
import { readThread, type OnOpen } from "./thread.ts";

export const threadView = defineOperation({
  access: MESSAGES,
  async run({ services: { db, config, emit, pageCache }, user, params, url }) {
    const threadId = params.threadId ?? "";
    // The client's opening (issue 48), in the read mark's transaction: the reply guarantee's
    // evidence, and a gig paused for want of it back on sale. A GET empties no page cache by
    // itself: this one does when the gig is listed again.
    let backOnSale = false;
    const clientOpens: OnOpen = (party) =>
      party.role === "client"
        ? async (tx) => {
            backOnSale = await recordClientOpening(tx, emit, party.id);
          }
        : null;
    // `since`: the live stream resyncs at once if an event came between this read and its start.
    const time = readerTime(user.timeZone, config);
    const { thread, quoteState, live } = await readThread(db, user.id, threadId, url.searchParams.get("cursor"), time, clientOpens);
    if (backOnSale) pageCache.invalidate();
    // The quote forms' state (issue 33; the cards are among the thread's items), and today in
    // the server's zone: Valid until's default and earliest day.
    // The digger's Propose a visit (issue 50): times in their zone, from their today; new times
    // for the booked visit not yet begun, if any (the server decides again when they are sent).
    const visitForm: VisitFormState | null =
      thread.role === "digger" && thread.visitsAllowed
        ? { zone: time.zone, today: time.today, lastDay: addDays(time.today, VISIT_MAX_AHEAD_DAYS), rescheduling: thread.nextVisit?.upcoming ? thread.nextVisit.window : null }
        : null;
    return {
      thread,
      visitForm,
      quoteState,
      today: time.today,
      live,
      since: Date.now(),
    };
  },
});
