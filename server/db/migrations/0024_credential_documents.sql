CREATE TABLE "credential_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"digger_id" uuid NOT NULL,
	"credential" text NOT NULL,
	"number" text NOT NULL,
	"stated_expiry" date NOT NULL,
	"document_key" text NOT NULL,
	"document_name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"verified_until" date,
	"decided_at" timestamp with time zone,
	"rejection_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credential_documents_credential_check" CHECK ("credential_documents"."credential" in ('insured', 'bonded', 'licensed')),
	CONSTRAINT "credential_documents_status_check" CHECK ("credential_documents"."status" in ('pending', 'approved', 'rejected', 'lapsed', 'replaced')),
	CONSTRAINT "credential_documents_number_length" CHECK (char_length(btrim("credential_documents"."number")) between 1 and 100),
	CONSTRAINT "credential_documents_name_length" CHECK (char_length("credential_documents"."document_name") between 1 and 200),
	CONSTRAINT "credential_documents_key_private" CHECK ("credential_documents"."document_key" like 'private/credentials/%'),
	CONSTRAINT "credential_documents_decision_check" CHECK (("credential_documents"."status" = 'pending' and "credential_documents"."decided_at" is null and "credential_documents"."verified_until" is null and "credential_documents"."rejection_reason" is null)
        or ("credential_documents"."status" in ('approved', 'lapsed', 'replaced') and "credential_documents"."decided_at" is not null and "credential_documents"."verified_until" is not null and "credential_documents"."rejection_reason" is null)
        or ("credential_documents"."status" = 'rejected' and "credential_documents"."decided_at" is not null and "credential_documents"."verified_until" is null and char_length(btrim("credential_documents"."rejection_reason")) between 1 and 1000))
);
--> statement-breakpoint
ALTER TABLE "credential_documents" ADD CONSTRAINT "credential_documents_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_documents_key" ON "credential_documents" USING btree ("document_key");--> statement-breakpoint
CREATE UNIQUE INDEX "credential_documents_one_pending" ON "credential_documents" USING btree ("digger_id","credential") WHERE "credential_documents"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "credential_documents_one_approved" ON "credential_documents" USING btree ("digger_id","credential") WHERE "credential_documents"."status" = 'approved';--> statement-breakpoint
CREATE INDEX "credential_documents_queue_idx" ON "credential_documents" USING btree ("created_at","id") WHERE "credential_documents"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "credential_documents_lapse_idx" ON "credential_documents" USING btree ("verified_until") WHERE "credential_documents"."status" = 'approved';--> statement-breakpoint
CREATE INDEX "credential_documents_digger_idx" ON "credential_documents" USING btree ("digger_id","created_at" DESC NULLS LAST);