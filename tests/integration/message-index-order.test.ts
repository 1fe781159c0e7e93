/**
 * Migration 0043 (issue 35, "Nothing grows with the data that should not"): the inbox and a
 * thread's page walk their indexes in the order they ask for, newest first, and stop after their
 * rows, instead of reading all of a user's threads or all of a thread's messages and sorting
 * them. The statements are the ones `readInbox` and `threadPage` send (recorded through a drizzle
 * logger on the same database), EXPLAINed with sorting and the other scans priced out: an index
 * that cannot give the order still leaves a Sort in the plan.
 */
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../server/db/client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, threads } from "../../server/db/schema.ts";
import { readInbox } from "../../server/conversations/inbox.ts";
import { threadPage } from "../../server/conversations/thread.ts";
import { encodeCursor } from "../../server/pagination.ts";
import { readerTime } from "../../server/reader-time.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { signUpAs } from "../support/accounts.ts";
import { diggerWithProfile, insertGig, insertPurchase } from "../support/leads.ts";
import { plan as planOn, recordingDb as recordingDbOn, type Statement } from "../support/query-plans.ts";

/** Times as a reader in UTC reads them. */
const utc = readerTime("UTC", { defaultTimeZone: "UTC" });

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const recordingDb = (recorded: Statement[]) => recordingDbOn(app, recorded);
const plan = (statement: Statement) => planOn(app, statement);

describe("the inbox and a thread's page read their indexes in order", () => {
  let diggerId: string;
  let clientId: string;
  let threadId: string;
  beforeAll(async () => {
    const client = await signUpAs(app, "consumer", "Ina Inbox");
    const digger = await diggerWithProfile(app);
    const purchase = await insertPurchase(app, await insertGig(app, client.id), digger.diggerId);
    const [thread] = await app.database.db.select().from(threads).where(eq(threads.purchaseId, purchase.id));
    threadId = thread!.id;
    diggerId = digger.id;
    clientId = client.id;
    await app.database.db.insert(messages).values(
      Array.from({ length: 5 }, (_, i) => ({ threadId, senderId: i % 2 ? client.id : digger.id, body: `Message ${i + 1}` })),
    );
    // A quote and a visit proposal before the messages: a thread's page reads them only when the thread has any (decision 0079).
    await queryRows(
      app.database.db,
      sql`insert into quotes (thread_id, gig_id, digger_id, type, amount_cents, included, valid_until, expires_at, status, created_at)
          values (${threadId}, ${purchase.gigId}, ${digger.diggerId}, 'fixed', 120000, 'Labour and materials.', (now() + interval '30 days')::date, now() + interval '30 days', 'open', now() - interval '2 days')`,
    );
    await queryRows(
      app.database.db,
      sql`with p as (insert into visit_proposals (thread_id, zone, created_at) values (${threadId}, 'UTC', now() - interval '1 day') returning id)
          insert into visit_options (proposal_id, position, starts_at, window_minutes) select id, 0, now() + interval '3 days', 60 from p`,
    );
  });

  it("the inbox walks each party's inbox index newest first, and each thread's last message by seq, without sorting them", async () => {
    for (const userId of [() => diggerId, () => clientId]) {
      const recorded: Statement[] = [];
      const page = (await readInbox(recordingDb(recorded), userId(), null, utc)).page;
      expect(page.items.map((item) => item.id)).toEqual([threadId]);
      const inbox = recorded.find((statement) => statement.sql.includes("last_activity_at"));
      expect(inbox).toBeDefined();
      const text = await plan(inbox!);
      expect(text).toContain("threads_digger_inbox_idx");
      expect(text).toContain("threads_client_inbox_idx");
      expect(text).toContain("messages_thread_seq_idx");
      // The newest quote beside it (issue 47: the inbox's last event), down the thread's quote index.
      expect(text).toContain("quotes_thread_idx");
      // Each half's order and the last message's come from the indexes (only the union of the
      // two halves' 21 rows each is merged or sorted).
      expect(text).not.toMatch(/Sort Key: threads(_\d+)?\.last_activity_at/);
      expect(text).not.toMatch(/Sort Key: (m\.)?seq DESC/);
      expect(text).not.toMatch(/Sort Key: (q\.)?created_at DESC/);
    }
  });

  it("a thread's page walks the thread's messages, quotes and visit proposals by (created_at, seq), newest first, without sorting them (migrations 0045, 0055)", async () => {
    const recorded: Statement[] = [];
    const view = await threadPage(recordingDb(recorded), diggerId, threadId, null, utc);
    expect(view.items.map((item) => (item.kind === "message" ? item.message.body : item.kind))).toEqual(["quote", "visit", "Message 1", "Message 2", "Message 3", "Message 4", "Message 5"]);
    // The first page and an earlier one (its cursor's condition on the index too).
    const newest = view.items.at(-1);
    if (newest?.kind !== "message") throw new Error("the newest item is a message");
    await threadPage(recordingDb(recorded), diggerId, threadId, encodeCursor([newest.message.createdAt, newest.message.seq]), utc);
    for (const [table, index] of [
      ["messages", "messages_thread_time_idx"],
      ["quotes", "quotes_thread_idx"],
      ["visit_proposals", "visit_proposals_thread_idx"],
    ] as const) {
      const pages = recorded.filter((statement) => new RegExp(`from "${table}"`).test(statement.sql) && new RegExp(`order by "${table}"\\."created_at" desc, "${table}"\\."seq" desc`).test(statement.sql));
      expect(pages, table).toHaveLength(2);
      for (const page of pages) {
        const text = await plan(page);
        expect(text, table).toContain(index);
        expect(text, table).not.toMatch(/Sort Key/);
      }
    }
  });
});
