-- Refund deadlines (docs/decisions/0020-refund-deadlines.md). Issues reported before this
-- migration were never given a deadline: a pending one gets a full response window (72 hours,
-- the default) from now, so none is approved automatically the moment this ships; a decided
-- one was decided by its client.
ALTER TABLE "lead_issues" ADD COLUMN "respond_by" timestamp with time zone;--> statement-breakpoint
UPDATE "lead_issues" SET "respond_by" = greatest("created_at", now()) + interval '72 hours' WHERE "status" = 'pending';--> statement-breakpoint
UPDATE "lead_issues" SET "respond_by" = "created_at" + interval '72 hours' WHERE "status" <> 'pending';--> statement-breakpoint
ALTER TABLE "lead_issues" ALTER COLUMN "respond_by" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_issues" ALTER COLUMN "respond_by" SET DEFAULT now() + interval '72 hours';--> statement-breakpoint
ALTER TABLE "lead_issues" ADD COLUMN "decided_by" text;--> statement-breakpoint
UPDATE "lead_issues" SET "decided_by" = 'client' WHERE "status" <> 'pending';--> statement-breakpoint
CREATE INDEX "lead_issues_pending_respond_by_idx" ON "lead_issues" USING btree ("respond_by") WHERE "lead_issues"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_decided_by_check" CHECK ("lead_issues"."decided_by" in ('client', 'automatic'));--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_decided_check" CHECK ("lead_issues"."status" <> 'pending' or "lead_issues"."decided_by" is null);--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_automatic_check" CHECK ("lead_issues"."decided_by" <> 'automatic' or "lead_issues"."status" = 'approved');
