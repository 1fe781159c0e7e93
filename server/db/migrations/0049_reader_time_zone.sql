-- Issue 47: each account's time zone (an IANA name, from the browser at sign-up or sign-in, or
-- chosen on /account); every time the account reads is written in it (server/reader-time.ts).
-- Null until then: the site's DEFAULT_TIME_ZONE. The server checks the name against the zones it
-- knows; the database only bounds its length.
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_time_zone_length" CHECK (char_length("time_zone") <= 64);
