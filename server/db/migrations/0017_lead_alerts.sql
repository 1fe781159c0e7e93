CREATE TABLE "lead_alert_categories" (
	"digger_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	CONSTRAINT "lead_alert_categories_digger_id_category_id_pk" PRIMARY KEY("digger_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "lead_alert_digests" (
	"digger_id" uuid NOT NULL,
	"day" date NOT NULL,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_alert_digests_digger_id_day_pk" PRIMARY KEY("digger_id","day")
);
--> statement-breakpoint
CREATE TABLE "lead_alert_settings" (
	"digger_id" uuid PRIMARY KEY NOT NULL,
	"frequency" text DEFAULT 'instant' NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"location" text,
	"max_lead_price_cents" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_alert_settings_frequency_check" CHECK ("lead_alert_settings"."frequency" in ('instant', 'daily', 'off')),
	CONSTRAINT "lead_alert_settings_keywords_check" CHECK (cardinality("lead_alert_settings"."keywords") <= 10),
	CONSTRAINT "lead_alert_settings_location_check" CHECK (char_length("lead_alert_settings"."location") between 1 and 100),
	CONSTRAINT "lead_alert_settings_price_check" CHECK ("lead_alert_settings"."max_lead_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "lead_alerts" (
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_alerts_gig_id_digger_id_pk" PRIMARY KEY("gig_id","digger_id")
);
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_unsubscribe_check";--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "visible_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_alert_categories" ADD CONSTRAINT "lead_alert_categories_digger_id_lead_alert_settings_digger_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."lead_alert_settings"("digger_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alert_categories" ADD CONSTRAINT "lead_alert_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alert_digests" ADD CONSTRAINT "lead_alert_digests_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alert_digests" ADD CONSTRAINT "lead_alert_digests_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alert_settings" ADD CONSTRAINT "lead_alert_settings_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alerts" ADD CONSTRAINT "lead_alerts_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alerts" ADD CONSTRAINT "lead_alerts_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_alerts" ADD CONSTRAINT "lead_alerts_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_alert_categories_category_idx" ON "lead_alert_categories" USING btree ("category_id","digger_id");--> statement-breakpoint
CREATE INDEX "lead_alert_settings_daily_idx" ON "lead_alert_settings" USING btree ("digger_id") WHERE "lead_alert_settings"."frequency" = 'daily';--> statement-breakpoint
CREATE INDEX "lead_alerts_digger_idx" ON "lead_alerts" USING btree ("digger_id");--> statement-breakpoint
CREATE INDEX "gigs_visible_since_idx" ON "gigs" USING btree ("visible_since" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published";--> statement-breakpoint
-- Set by the operator console to come (a later issue): a suspended account gets no lead alerts.
COMMENT ON COLUMN "users"."suspended_at" IS 'When an operator suspended the account (set by the operator console); null: not suspended';--> statement-breakpoint
-- Lead alerts go when a gig becomes visible: open and published (docs/decisions/0023-lead-alerts.md).
-- The gigs visible today count as visible since they were posted.
UPDATE "gigs" SET "visible_since" = "created_at" WHERE "status" = 'open' AND "published";--> statement-breakpoint
CREATE FUNCTION "gigs_visible_since"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Named to run after "gigs_published_on_insert" (triggers fire by name), which sets NEW."published".
  IF NEW."status" = 'open' AND NEW."published"
     AND (TG_OP = 'INSERT' OR NOT (OLD."status" = 'open' AND OLD."published")) THEN
    NEW."visible_since" := now();
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "gigs_visible_since" BEFORE INSERT OR UPDATE OF "status", "published" ON "gigs"
  FOR EACH ROW EXECUTE FUNCTION "gigs_visible_since"();
