-- The reply guarantee (issue 48, docs/decisions/0074-the-reply-guarantee.md): what a thread shows
-- decides a refund. Every figure here is kept by the database in the transaction that changes
-- it, never computed per request.
--
-- A thread's evidence: its digger's first answer (a message or a quote), how many each side
-- wrote, the client's first message, and when the client first opened it with something of the
-- digger's in it (set by the thread's page for the client only: an operator's look never counts).
ALTER TABLE "threads" ADD COLUMN "digger_first_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "client_first_reply_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "client_opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "digger_messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "client_messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "threads" "t" SET
  "digger_messages" = (SELECT count(*) FROM "messages" "m" WHERE "m"."thread_id" = "t"."id" AND "m"."sender_id" = "t"."digger_user_id")
    + (SELECT count(*) FROM "quotes" "q" WHERE "q"."thread_id" = "t"."id"),
  "client_messages" = (SELECT count(*) FROM "messages" "m" WHERE "m"."thread_id" = "t"."id" AND "m"."sender_id" = "t"."client_id"),
  "digger_first_at" = least(
    (SELECT min("m"."created_at") FROM "messages" "m" WHERE "m"."thread_id" = "t"."id" AND "m"."sender_id" = "t"."digger_user_id"),
    (SELECT min("q"."created_at") FROM "quotes" "q" WHERE "q"."thread_id" = "t"."id")),
  "client_first_reply_at" = (SELECT min("m"."created_at") FROM "messages" "m" WHERE "m"."thread_id" = "t"."id" AND "m"."sender_id" = "t"."client_id");--> statement-breakpoint
-- Threads read before today count as opened when the client's read mark passed the digger's first answer.
UPDATE "threads" SET "client_opened_at" = "client_read_at"
  WHERE "digger_first_at" IS NOT NULL AND "client_read_at" IS NOT NULL AND "client_read_at" >= "digger_first_at";--> statement-breakpoint
--
-- A purchase's guarantee: covered when its digger's first answer came within 24 hours of the
-- purchase; then due 48 hours after that answer. Its outcome, once the check (or an operator)
-- settled it: 'refunded' (by the guarantee), 'answered' (the client opened, replied, decided a
-- quote or hired), 'escalated' (past the digger's 3 in 30 days: the operators decide),
-- 'declined' (an operator refused it), 'skipped' (an issue pending or approved on it, or
-- nothing left to refund).
ALTER TABLE "lead_purchases" ADD COLUMN "guarantee_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD COLUMN "guarantee_outcome" text;--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD COLUMN "guarantee_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD CONSTRAINT "lead_purchases_guarantee_outcome_check" CHECK ("guarantee_outcome" in ('refunded', 'answered', 'escalated', 'declined', 'skipped'));--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD CONSTRAINT "lead_purchases_guarantee_settled_check" CHECK ("guarantee_outcome" IS NULL OR "guarantee_outcome" = 'escalated' OR "guarantee_settled_at" IS NOT NULL);--> statement-breakpoint
-- Purchases from before the guarantee are not covered: nothing is due for them.
CREATE INDEX "lead_purchases_guarantee_due_idx" ON "lead_purchases" USING btree ("guarantee_due_at") WHERE "guarantee_due_at" IS NOT NULL AND "guarantee_outcome" IS NULL;--> statement-breakpoint
CREATE INDEX "lead_purchases_guarantee_escalated_idx" ON "lead_purchases" USING btree ("guarantee_settled_at") WHERE "guarantee_outcome" = 'escalated';--> statement-breakpoint
--
-- Refunds by the guarantee: at most one per purchase; a fake request's approval refunds the
-- gig's other buyers too ('gig_removed').
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_reason_check";--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_reason_check" CHECK (("reason" = 'issue_approved' and "lead_issue_id" is not null) or ("reason" in ('duplicate_payment', 'lead_unavailable', 'reply_guarantee', 'gig_removed') and "lead_issue_id" is null));--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_reply_guarantee_key" ON "refunds" USING btree ("lead_purchase_id") WHERE "reason" = 'reply_guarantee';--> statement-breakpoint
--
-- Issues: 'fake_request' (Fake or Spam Request, decided by an operator only), and 'guarantee',
-- the decider of an issue approved at once because the client had not opened the thread 48
-- hours after the digger's first answer (it counts toward the guarantee's 3 in 30 days).
ALTER TABLE "lead_issues" DROP CONSTRAINT "lead_issues_type_check";--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_type_check" CHECK ("issue_type" in ('mistake', 'changed_mind', 'already_filled', 'fake_request'));--> statement-breakpoint
ALTER TABLE "lead_issues" DROP CONSTRAINT "lead_issues_decided_by_check";--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_decided_by_check" CHECK ("decided_by" in ('client', 'automatic', 'operator', 'guarantee'));--> statement-breakpoint
ALTER TABLE "lead_issues" DROP CONSTRAINT "lead_issues_automatic_check";--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_automatic_check" CHECK ("decided_by" NOT IN ('automatic', 'guarantee') or "status" = 'approved');--> statement-breakpoint
CREATE INDEX "lead_issues_digger_guarantee_idx" ON "lead_issues" USING btree ("digger_id", "resolved_at") WHERE "decided_by" = 'guarantee';--> statement-breakpoint
--
-- A lead nobody can reach: its client opened none of its threads 48 hours after a covered first
-- answer. Set by the guarantee's check, cleared when the client opens any of the gig's threads;
-- one more term of the for-sale rule and of the partial indexes.
ALTER TABLE "gigs" ADD COLUMN "awaiting_reply" boolean DEFAULT false NOT NULL;--> statement-breakpoint
DROP INDEX "gigs_open_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_category_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_search_trgm";--> statement-breakpoint
DROP INDEX "gigs_open_location_trgm";--> statement-breakpoint
CREATE INDEX "gigs_open_newest_idx" ON "gigs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more") and not "gigs"."awaiting_reply";--> statement-breakpoint
CREATE INDEX "gigs_open_category_newest_idx" ON "gigs" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more") and not "gigs"."awaiting_reply";--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more") and not "gigs"."awaiting_reply";--> statement-breakpoint
CREATE INDEX "gigs_open_location_trgm" ON "gigs" USING gin (lower("location") gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more") and not "gigs"."awaiting_reply";--> statement-breakpoint
--
-- The client's record (what a digger sees before buying): per client and month of purchase, the
-- leads whose digger wrote, how many the client replied to, and the replies' delays by the
-- response-time bands (an hour, 6 hours, a day); and per client, the gigs somebody bought and
-- how many of those hired. Read as at most 12 months' rows and one row per client.
CREATE TABLE "client_reply_months" (
  "client_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "month" date NOT NULL,
  "leads" integer DEFAULT 0 NOT NULL,
  "replied" integer DEFAULT 0 NOT NULL,
  "within_hour" integer DEFAULT 0 NOT NULL,
  "within_few_hours" integer DEFAULT 0 NOT NULL,
  "within_day" integer DEFAULT 0 NOT NULL,
  PRIMARY KEY ("client_id", "month")
);--> statement-breakpoint
CREATE TABLE "client_records" (
  "client_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "leads" integer DEFAULT 0 NOT NULL,
  "gigs_bought" integer DEFAULT 0 NOT NULL,
  "gigs_hired" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- One reply counted into its month and band; `delay` null: a lead whose digger wrote, not replied yet.
CREATE FUNCTION "count_client_reply"("client" text, "at" timestamp with time zone, "new_lead" boolean, "delay" interval) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "m" date := date_trunc('month', "at" AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO "client_reply_months" ("client_id", "month") VALUES ("client", "m") ON CONFLICT DO NOTHING;
  UPDATE "client_reply_months" SET
    "leads" = "leads" + CASE WHEN "new_lead" THEN 1 ELSE 0 END,
    "replied" = "replied" + CASE WHEN "delay" IS NOT NULL THEN 1 ELSE 0 END,
    "within_hour" = "within_hour" + CASE WHEN "delay" <= interval '1 hour' THEN 1 ELSE 0 END,
    "within_few_hours" = "within_few_hours" + CASE WHEN "delay" > interval '1 hour' AND "delay" <= interval '6 hours' THEN 1 ELSE 0 END,
    "within_day" = "within_day" + CASE WHEN "delay" > interval '6 hours' AND "delay" <= interval '24 hours' THEN 1 ELSE 0 END
  WHERE "client_id" = "client" AND "month" = "m";
  IF "new_lead" THEN
    INSERT INTO "client_records" ("client_id", "leads") VALUES ("client", 1)
      ON CONFLICT ("client_id") DO UPDATE SET "leads" = "client_records"."leads" + 1;
  END IF;
END
$$;--> statement-breakpoint
-- A message or quote written in a thread: the counts, the first answer and first reply, and
-- from the first answer the purchase's guarantee (covered within 24 hours of the purchase).
CREATE FUNCTION "thread_written"("thread" uuid, "sender" text, "at" timestamp with time zone, "is_quote" boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "t" "threads"%ROWTYPE;
  "bought" timestamp with time zone;
BEGIN
  SELECT * INTO "t" FROM "threads" WHERE "id" = "thread" FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  IF "is_quote" OR "sender" = "t"."digger_user_id" THEN
    UPDATE "threads" SET "digger_messages" = "digger_messages" + 1, "digger_first_at" = coalesce("digger_first_at", "at") WHERE "id" = "thread";
    IF "t"."digger_first_at" IS NULL THEN
      SELECT "purchased_at" INTO "bought" FROM "lead_purchases" WHERE "id" = "t"."purchase_id";
      IF "bought" IS NOT NULL AND "at" <= "bought" + interval '24 hours' THEN
        UPDATE "lead_purchases" SET "guarantee_due_at" = "at" + interval '48 hours' WHERE "id" = "t"."purchase_id" AND "guarantee_due_at" IS NULL;
      END IF;
      PERFORM "count_client_reply"("t"."client_id", "t"."created_at", true,
        CASE WHEN "t"."client_first_reply_at" IS NOT NULL THEN interval '0' END);
    END IF;
  ELSIF "sender" = "t"."client_id" THEN
    UPDATE "threads" SET "client_messages" = "client_messages" + 1, "client_first_reply_at" = coalesce("client_first_reply_at", "at") WHERE "id" = "thread";
    IF "t"."client_first_reply_at" IS NULL AND "t"."digger_first_at" IS NOT NULL THEN
      PERFORM "count_client_reply"("t"."client_id", "t"."created_at", false, greatest("at" - "t"."digger_first_at", interval '0'));
    END IF;
  END IF;
END
$$;--> statement-breakpoint
CREATE FUNCTION "messages_thread_written"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "thread_written"(NEW."thread_id", NEW."sender_id", NEW."created_at", false);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "messages_thread_written" AFTER INSERT ON "messages" FOR EACH ROW EXECUTE FUNCTION "messages_thread_written"();--> statement-breakpoint
CREATE FUNCTION "quotes_thread_written"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "thread_written"(NEW."thread_id", NULL, NEW."created_at", true);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "quotes_thread_written" AFTER INSERT ON "quotes" FOR EACH ROW EXECUTE FUNCTION "quotes_thread_written"();--> statement-breakpoint
-- Gigs somebody bought, and of those the hired ones, per client.
CREATE FUNCTION "gigs_client_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "bought" integer := CASE WHEN NEW."purchase_count" > 0 THEN 1 ELSE 0 END - CASE WHEN OLD."purchase_count" > 0 THEN 1 ELSE 0 END;
  "hired" integer := CASE WHEN NEW."purchase_count" > 0 AND NEW."hired" THEN 1 ELSE 0 END - CASE WHEN OLD."purchase_count" > 0 AND OLD."hired" THEN 1 ELSE 0 END;
BEGIN
  IF "bought" <> 0 OR "hired" <> 0 THEN
    INSERT INTO "client_records" ("client_id", "gigs_bought", "gigs_hired") VALUES (NEW."consumer_id", greatest("bought", 0), greatest("hired", 0))
      ON CONFLICT ("client_id") DO UPDATE SET
        "gigs_bought" = "client_records"."gigs_bought" + "bought",
        "gigs_hired" = "client_records"."gigs_hired" + "hired";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "gigs_client_record" AFTER UPDATE OF "purchase_count", "hired" ON "gigs" FOR EACH ROW EXECUTE FUNCTION "gigs_client_record"();--> statement-breakpoint
-- The records of what happened before today.
INSERT INTO "client_records" ("client_id", "leads", "gigs_bought", "gigs_hired")
  SELECT "consumer_id", 0, count(*), count(*) FILTER (WHERE "hired") FROM "gigs" WHERE "purchase_count" > 0 GROUP BY "consumer_id";--> statement-breakpoint
INSERT INTO "client_reply_months" ("client_id", "month", "leads", "replied", "within_hour", "within_few_hours", "within_day")
  SELECT "client_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, count(*),
    count(*) FILTER (WHERE "client_first_reply_at" IS NOT NULL),
    count(*) FILTER (WHERE greatest("client_first_reply_at" - "digger_first_at", interval '0') <= interval '1 hour'),
    count(*) FILTER (WHERE "client_first_reply_at" - "digger_first_at" > interval '1 hour' AND "client_first_reply_at" - "digger_first_at" <= interval '6 hours'),
    count(*) FILTER (WHERE "client_first_reply_at" - "digger_first_at" > interval '6 hours' AND "client_first_reply_at" - "digger_first_at" <= interval '24 hours')
  FROM "threads" WHERE "digger_first_at" IS NOT NULL GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "client_records" ("client_id", "leads")
  SELECT "client_id", sum("leads") FROM "client_reply_months" GROUP BY "client_id"
  ON CONFLICT ("client_id") DO UPDATE SET "leads" = excluded."leads";
