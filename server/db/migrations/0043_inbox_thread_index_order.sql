-- The inbox and a thread's page read their rows newest first (`order by last_activity_at desc,
-- id desc`; `order by seq desc`), which is DESC NULLS FIRST. Migration 0029 built their indexes
-- DESC NULLS LAST, an order PostgreSQL cannot use for that even on NOT NULL columns: each page
-- read every thread of its user, and every message of its thread, and sorted them (issue 35,
-- "Nothing grows with the data that should not"; the plans are in bench/README.md). Rebuilt in
-- the order the queries ask for, so a page stops after its rows.
DROP INDEX "threads_digger_inbox_idx";--> statement-breakpoint
CREATE INDEX "threads_digger_inbox_idx" ON "threads" USING btree ("digger_user_id","last_activity_at" DESC,"id" DESC);--> statement-breakpoint
DROP INDEX "threads_client_inbox_idx";--> statement-breakpoint
CREATE INDEX "threads_client_inbox_idx" ON "threads" USING btree ("client_id","last_activity_at" DESC,"id" DESC);--> statement-breakpoint
DROP INDEX "messages_thread_seq_idx";--> statement-breakpoint
CREATE INDEX "messages_thread_seq_idx" ON "messages" USING btree ("thread_id","seq" DESC);
