-- Reply by e-mail (issue 32, decision 0048): a message posted from an e-mail keeps that
-- e-mail's Message-ID, once per thread, so the same e-mail delivered twice posts once.
ALTER TABLE "messages" ADD COLUMN "email_message_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_email_message_key" ON "messages" ("thread_id", "email_message_id") WHERE "email_message_id" IS NOT NULL;
