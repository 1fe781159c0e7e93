-- Conversations (issue 32): one thread per completed purchase, between the digger who bought the
-- lead and the gig's client; its messages in the order they were written (`seq`); each party's
-- read mark on the thread; blocks between two people; reports of a message for the console's
-- Messages queue (docs/decisions/0038-conversations.md).
CREATE TABLE "threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_id" uuid NOT NULL,
	"digger_user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_seq" bigint DEFAULT 0 NOT NULL,
	"digger_read_seq" bigint DEFAULT 0 NOT NULL,
	"client_read_seq" bigint DEFAULT 0 NOT NULL,
	"digger_read_at" timestamp with time zone,
	"client_read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "threads_parties_check" CHECK ("threads"."digger_user_id" <> "threads"."client_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
	"thread_id" uuid NOT NULL,
	"sender_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hidden_at" timestamp with time zone,
	"hidden_by" text,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "messages_body_check" CHECK (("messages"."deleted_at" is null and char_length(btrim("messages"."body")) between 1 and 5000) or ("messages"."deleted_at" is not null and "messages"."body" = '')),
	CONSTRAINT "messages_hidden_check" CHECK (("messages"."hidden_at" is null) = ("messages"."hidden_by" is null))
);
--> statement-breakpoint
CREATE TABLE "blocks" (
	"blocker_id" text NOT NULL,
	"blocked_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocks_blocker_id_blocked_id_pk" PRIMARY KEY("blocker_id","blocked_id"),
	CONSTRAINT "blocks_not_self_check" CHECK ("blocks"."blocker_id" <> "blocks"."blocked_id")
);
--> statement-breakpoint
CREATE TABLE "message_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"reporter_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	CONSTRAINT "message_reports_reason_length" CHECK (char_length(btrim("message_reports"."reason")) between 10 and 500),
	CONSTRAINT "message_reports_resolution_check" CHECK (("message_reports"."resolved_at" is null) = ("message_reports"."resolution" is null) and ("message_reports"."resolution" is null or "message_reports"."resolution" in ('hidden', 'kept')))
);
--> statement-breakpoint
ALTER TABLE "threads" ADD CONSTRAINT "threads_purchase_id_lead_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."lead_purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threads" ADD CONSTRAINT "threads_digger_user_id_users_id_fk" FOREIGN KEY ("digger_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threads" ADD CONSTRAINT "threads_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_blocker_id_users_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_blocked_id_users_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reports" ADD CONSTRAINT "message_reports_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reports" ADD CONSTRAINT "message_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "threads_purchase_key" ON "threads" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "threads_digger_inbox_idx" ON "threads" USING btree ("digger_user_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "threads_client_inbox_idx" ON "threads" USING btree ("client_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "threads_digger_unread_idx" ON "threads" USING btree ("digger_user_id") WHERE "threads"."last_message_seq" > "threads"."digger_read_seq";--> statement-breakpoint
CREATE INDEX "threads_client_unread_idx" ON "threads" USING btree ("client_id") WHERE "threads"."last_message_seq" > "threads"."client_read_seq";--> statement-breakpoint
CREATE INDEX "messages_thread_seq_idx" ON "messages" USING btree ("thread_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_sender_idx" ON "messages" USING btree ("sender_id");--> statement-breakpoint
CREATE INDEX "blocks_blocked_idx" ON "blocks" USING btree ("blocked_id");--> statement-breakpoint
CREATE UNIQUE INDEX "message_reports_message_reporter_key" ON "message_reports" USING btree ("message_id","reporter_id");--> statement-breakpoint
CREATE INDEX "message_reports_open_idx" ON "message_reports" USING btree ("created_at","id") WHERE "message_reports"."resolved_at" is null;--> statement-breakpoint
ALTER TABLE "operator_actions" DROP CONSTRAINT "operator_actions_subject_type_check";--> statement-breakpoint
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_subject_type_check" CHECK ("operator_actions"."subject_type" in ('user', 'gig', 'review', 'credential', 'profile', 'refund', 'issue', 'message'));--> statement-breakpoint
-- A purchase's thread is made in the transaction that completes it, whoever completes it (the
-- webhook, the test checkout, the seed): a trigger, so no completed purchase is ever without one.
CREATE OR REPLACE FUNCTION "purchase_thread"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "threads" ("purchase_id", "digger_user_id", "client_id", "last_activity_at")
    SELECT NEW."id", "d"."user_id", "g"."consumer_id", coalesce(NEW."purchased_at", now())
    FROM "digger_profiles" "d", "gigs" "g"
    WHERE "d"."id" = NEW."digger_id" AND "g"."id" = NEW."gig_id"
  ON CONFLICT ("purchase_id") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "lead_purchases_thread" AFTER INSERT OR UPDATE OF "status" ON "lead_purchases"
  FOR EACH ROW WHEN (NEW."status" = 'completed') EXECUTE FUNCTION "purchase_thread"();--> statement-breakpoint
-- The purchases completed before conversations existed get their threads now.
INSERT INTO "threads" ("purchase_id", "digger_user_id", "client_id", "last_activity_at", "created_at")
  SELECT "p"."id", "d"."user_id", "g"."consumer_id", "p"."purchased_at", "p"."purchased_at"
  FROM "lead_purchases" "p"
  JOIN "digger_profiles" "d" ON "d"."id" = "p"."digger_id"
  JOIN "gigs" "g" ON "g"."id" = "p"."gig_id"
  WHERE "p"."status" = 'completed'
ON CONFLICT ("purchase_id") DO NOTHING;
