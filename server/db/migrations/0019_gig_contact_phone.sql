ALTER TABLE "gigs" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "gigs" ADD CONSTRAINT "gigs_contact_phone_check" CHECK ("gigs"."contact_phone" ~ '^[0-9 +()-]{7,20}$');