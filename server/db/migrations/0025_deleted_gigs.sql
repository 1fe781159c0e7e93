-- A gig its client deleted after a digger started a checkout for it (issue 30, finding 11,
-- decision 0030): its purchase rows stay (lead_purchases restricts deleting the gig), so the gig
-- stays as a closed row without its text, marked deleted, and is gone everywhere else.
ALTER TABLE "gigs" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gigs" ADD CONSTRAINT "gigs_deleted_closed_check" CHECK ("gigs"."deleted_at" is null or "gigs"."status" = 'closed');
