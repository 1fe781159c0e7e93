-- When each notice last went: one row per recipient, kind and subject. notify() takes the row
-- (insert ... on conflict do update ... where older than 24 hours) in the event's transaction;
-- no row back means the same notice went less than 24 hours ago and this one is dropped
-- (decision 0034).
CREATE TABLE "notice_sends" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_sends_user_id_kind_subject_id_pk" PRIMARY KEY("user_id","kind","subject_id")
);
--> statement-breakpoint
ALTER TABLE "notice_sends" ADD CONSTRAINT "notice_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
