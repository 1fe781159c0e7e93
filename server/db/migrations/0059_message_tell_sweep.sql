-- The safety net behind the `messages.tell` job (issue 52, decision 0082): every 5 minutes the
-- `messages.tell-sweep` job tells of the messages whose job failed for good or is gone, those
-- older than 5 minutes and younger than 6 hours whose `told_at` is still null.
--
-- 1. The messages no job will tell of are marked told (`told_at = created_at`): those written
--    before migration 0058 (their recipient was told in the send's own transaction) and any
--    whose job is gone. A message with a `messages.tell` job still kept (waiting, retrying or
--    failed) stays untold: its job or the sweep tells of it. On a database the job queue has
--    not started on yet (no `pgboss.job`), no message has a job: all are marked.
-- 2. The sweep's index: only the untold messages, which the job claims within moments of the
--    send, so it stays a handful of rows whatever the table's size.
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NULL THEN
    UPDATE "messages" SET "told_at" = "created_at" WHERE "told_at" IS NULL;
  ELSE
    UPDATE "messages" "m" SET "told_at" = "m"."created_at"
    WHERE "m"."told_at" IS NULL
      AND NOT EXISTS (SELECT 1 FROM "pgboss"."job" "j" WHERE "j"."name" = 'messages.tell' AND "j"."data"->>'messageId' = "m"."id"::text);
  END IF;
END
$$;--> statement-breakpoint
CREATE INDEX "messages_untold_idx" ON "messages" USING btree ("created_at","id") WHERE "told_at" IS NULL;
