-- A thread shows its messages and its quote cards as one list in the order they were sent
-- (issue 33): newest 50 first, 'Show earlier messages' going back by (created_at, seq). A quote
-- takes its `seq` from the messages' own sequence, so that one tie-breaker orders a message and a
-- quote sent in the same instant (PGlite's clock may give both the same created_at); existing
-- quotes are numbered in the order of the rewrite, a tie-breaker only. Both halves of a page are
-- read from an index in the order the page asks for (DESC, DESC), stopping after their rows.
ALTER TABLE "quotes" ADD COLUMN "seq" bigint DEFAULT nextval('messages_seq_seq'::regclass) NOT NULL;--> statement-breakpoint
DROP INDEX "quotes_thread_idx";--> statement-breakpoint
CREATE INDEX "quotes_thread_idx" ON "quotes" USING btree ("thread_id","created_at" DESC,"seq" DESC);--> statement-breakpoint
CREATE INDEX "messages_thread_time_idx" ON "messages" USING btree ("thread_id","created_at" DESC,"seq" DESC);
