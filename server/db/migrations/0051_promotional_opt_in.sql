-- Issue 47: promotional e-mail is opt-in. Nobody was ever asked (the box was ticked by default
-- and sign-up offers none), so no stored "on" is a choice: every account starts off, and turns it
-- on under /account's E-mail preferences (docs/decisions/0071-times-in-the-readers-zone.md).
ALTER TABLE "users" ALTER COLUMN "promotional_email" SET DEFAULT false;--> statement-breakpoint
UPDATE "users" SET "promotional_email" = false WHERE "promotional_email";
