DROP INDEX "emails_due_idx";--> statement-breakpoint
ALTER TABLE "emails" DROP COLUMN "next_attempt_at";