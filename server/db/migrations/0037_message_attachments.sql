-- Attachments of a message (issue 32; docs/decisions/0047-message-attachments.md): up to 5 files
-- per message (position 0 to 4, unique per message), each a JPEG, PNG, WebP or PDF of at most
-- 10 MB, its bytes in private storage under `storage_key`. Written in the message's transaction;
-- gone with the message (cascade) and with the purge of its sender's account.
CREATE TABLE "message_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_attachments_position_check" CHECK ("message_attachments"."position" between 0 and 4),
	CONSTRAINT "message_attachments_type_check" CHECK ("message_attachments"."content_type" in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
	CONSTRAINT "message_attachments_size_check" CHECK ("message_attachments"."size_bytes" between 1 and 10485760),
	CONSTRAINT "message_attachments_name_check" CHECK (char_length("message_attachments"."file_name") between 1 and 200),
	CONSTRAINT "message_attachments_key_check" CHECK ("message_attachments"."storage_key" like 'private/%')
);
--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "message_attachments_message_position_key" ON "message_attachments" USING btree ("message_id","position");
--> statement-breakpoint
CREATE UNIQUE INDEX "message_attachments_storage_key_key" ON "message_attachments" USING btree ("storage_key");
