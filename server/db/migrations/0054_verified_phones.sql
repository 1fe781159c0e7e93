-- Verified phone numbers (issue 49, docs/decisions/0075-verified-phones.md): a client proves by
-- a code sent by text message that they receive texts at a number; diggers see it before they
-- buy, and it decides wrong-number reports. Numbers written from now on are E.164
-- ('+15125550123'); numbers stored before as free text stay as they are and count as not
-- verified until verified.
--
-- The account's number to reuse (/account): filled into new gigs once verified.
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_phone_check" CHECK ("phone" ~ '^\+[1-9][0-9]{6,14}$');--> statement-breakpoint
--
-- A number an account proved it receives texts at, and when. Several accounts may verify one
-- number (people share phones); none of them sees another's.
CREATE TABLE "phone_verifications" (
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "phone" text NOT NULL,
  "verified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "phone_verifications_pkey" PRIMARY KEY ("user_id", "phone"),
  CONSTRAINT "phone_verifications_phone_check" CHECK ("phone" ~ '^\+[1-9][0-9]{6,14}$')
);--> statement-breakpoint
--
-- The one code an account is waiting on (a new code replaces it; a right one deletes it): its
-- HMAC only, never the code; at most 5 tries; good for 10 minutes. What it verifies the number
-- for: the account's number (/account) or a gig's (Post Gig, Edit Gig, whose free-text number
-- is then written in E.164).
CREATE TABLE "phone_codes" (
  "user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "phone" text NOT NULL,
  "code_hash" text NOT NULL,
  "for_account" boolean DEFAULT false NOT NULL,
  "gig_id" uuid REFERENCES "gigs"("id") ON DELETE SET NULL,
  "sent_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "tries_left" integer DEFAULT 5 NOT NULL,
  -- The provider's id of the text (support only): never in logs, exports or pages.
  "provider_message_id" text,
  CONSTRAINT "phone_codes_phone_check" CHECK ("phone" ~ '^\+[1-9][0-9]{6,14}$'),
  CONSTRAINT "phone_codes_tries_check" CHECK ("tries_left" between 0 and 5)
);--> statement-breakpoint
--
-- Local mode's outbox of text messages (/dev/sms, like /dev/mail): what the app would have sent.
-- Never written in production (a real provider sends, or phone verification is off).
CREATE TABLE "sms_outbox" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "to_phone" text NOT NULL,
  "body" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "sms_outbox_newest_idx" ON "sms_outbox" USING btree ("created_at" DESC);--> statement-breakpoint
--
-- A gig's phone is verified when its client verified that very number: kept by the triggers
-- below (when the gig's number changes, and when its client verifies or forgets a number),
-- never written by the app. The date is the verification's ('The client verified this number
-- on {date}').
ALTER TABLE "gigs" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
CREATE FUNCTION gigs_phone_verified() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."phone_verified_at" := (SELECT "verified_at" FROM "phone_verifications"
    WHERE "user_id" = NEW."consumer_id" AND "phone" = NEW."contact_phone");
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER gigs_phone_verified BEFORE INSERT OR UPDATE OF "contact_phone", "consumer_id", "phone_verified_at" ON "gigs" FOR EACH ROW EXECUTE FUNCTION gigs_phone_verified();--> statement-breakpoint
CREATE FUNCTION phone_verifications_sync_gigs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "gigs" SET "phone_verified_at" = NULL WHERE "consumer_id" = OLD."user_id" AND "contact_phone" = OLD."phone";
  ELSE
    -- The gigs' trigger reads the row just written.
    UPDATE "gigs" SET "phone_verified_at" = NEW."verified_at" WHERE "consumer_id" = NEW."user_id" AND "contact_phone" = NEW."phone";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER phone_verifications_gigs AFTER INSERT OR UPDATE OR DELETE ON "phone_verifications" FOR EACH ROW EXECUTE FUNCTION phone_verifications_sync_gigs();--> statement-breakpoint
--
-- What the digger bought: whether the gig's phone was verified when the purchase completed (and
-- since when). A Wrong Phone Number report on a number nobody verified is approved at once.
ALTER TABLE "lead_purchases" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
CREATE FUNCTION lead_purchases_phone_verified() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'completed' AND (TG_OP = 'INSERT' OR OLD."status" <> 'completed') THEN
    NEW."phone_verified_at" := (SELECT "phone_verified_at" FROM "gigs" WHERE "id" = NEW."gig_id");
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER lead_purchases_phone_verified BEFORE INSERT OR UPDATE OF "status" ON "lead_purchases" FOR EACH ROW EXECUTE FUNCTION lead_purchases_phone_verified();--> statement-breakpoint
--
-- Browse Gigs' 'Verified phone only': the listed gigs with a verified phone, newest first.
CREATE INDEX "gigs_open_verified_newest_idx" ON "gigs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more") and not "gigs"."awaiting_reply" and "gigs"."phone_verified_at" IS NOT NULL;--> statement-breakpoint
--
-- A digger may limit lead alerts to gigs with a verified phone (/account).
ALTER TABLE "lead_alert_settings" ADD COLUMN "verified_phone_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
--
-- Issues: 'wrong_phone' (Wrong Phone Number, 100%).
ALTER TABLE "lead_issues" DROP CONSTRAINT "lead_issues_type_check";--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_type_check" CHECK ("issue_type" in ('mistake', 'changed_mind', 'already_filled', 'fake_request', 'wrong_phone'));
