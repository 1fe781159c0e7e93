-- E-mail about new messages (issue 32, decision 0038 "Notifications"): the account's switch
-- 'E-mail me about new messages' (on by default), and per thread and recipient whether a
-- notification job is pending (so at most one is) and when the last e-mail went (at most one
-- per 30 minutes).
ALTER TABLE "users" ADD COLUMN "message_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE TABLE "message_notices" (
	"thread_id" uuid NOT NULL REFERENCES "threads"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"pending" boolean DEFAULT false NOT NULL,
	"emailed_at" timestamp with time zone,
	CONSTRAINT "message_notices_pk" PRIMARY KEY ("thread_id", "user_id")
);--> statement-breakpoint
CREATE INDEX "message_notices_user_idx" ON "message_notices" ("user_id");
