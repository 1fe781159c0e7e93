CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"to_address" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "emails_kind_check" CHECK ("emails"."kind" in ('transactional', 'promotional')),
	CONSTRAINT "emails_status_check" CHECK ("emails"."status" in ('pending', 'sent', 'kept')),
	CONSTRAINT "emails_attempts_check" CHECK ("emails"."attempts" >= 0),
	CONSTRAINT "emails_sent_check" CHECK (("emails"."status" = 'sent') = ("emails"."sent_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("next_attempt_at") WHERE "emails"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "emails_user_newest_idx" ON "emails" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "emails_newest_idx" ON "emails" USING btree ("created_at" DESC NULLS FIRST);