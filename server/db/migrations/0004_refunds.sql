CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_purchase_id" uuid NOT NULL,
	"lead_issue_id" uuid,
	"reason" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_refund_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_cents" > 0),
	CONSTRAINT "refunds_reason_check" CHECK (("refunds"."reason" = 'issue_approved' and "refunds"."lead_issue_id" is not null) or ("refunds"."reason" = 'duplicate_payment' and "refunds"."lead_issue_id" is null)),
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('pending', 'succeeded')),
	CONSTRAINT "refunds_completed_check" CHECK (("refunds"."status" = 'succeeded') = ("refunds"."completed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_lead_purchase_id_lead_purchases_id_fk" FOREIGN KEY ("lead_purchase_id") REFERENCES "public"."lead_purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_lead_issue_id_lead_issues_id_fk" FOREIGN KEY ("lead_issue_id") REFERENCES "public"."lead_issues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_issue_key" ON "refunds" USING btree ("lead_issue_id");--> statement-breakpoint
CREATE INDEX "refunds_purchase_idx" ON "refunds" USING btree ("lead_purchase_id");--> statement-breakpoint
CREATE INDEX "refunds_pending_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" = 'pending';