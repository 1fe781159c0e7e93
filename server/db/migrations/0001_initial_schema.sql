CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"parent_category_id" uuid,
	CONSTRAINT "categories_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "digger_categories" (
	"digger_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	CONSTRAINT "digger_categories_digger_id_category_id_pk" PRIMARY KEY("digger_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "digger_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"handle" text NOT NULL,
	"business_name" text NOT NULL,
	"phone" text NOT NULL,
	"location" text NOT NULL,
	"profession" text NOT NULL,
	"bio" text NOT NULL,
	"profile_image_url" text,
	"portfolio_url" text,
	"hourly_rate_min_cents" integer,
	"hourly_rate_max_cents" integer,
	"years_experience" integer,
	"availability" text,
	"average_rating" numeric(3, 2) DEFAULT 0 NOT NULL,
	"total_ratings" integer DEFAULT 0 NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"is_insured" boolean DEFAULT false NOT NULL,
	"is_bonded" boolean DEFAULT false NOT NULL,
	"is_licensed" text DEFAULT 'not_required' NOT NULL,
	"completion_rate" integer DEFAULT 0 NOT NULL,
	"response_time_hours" integer,
	"work_photos" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digger_profiles_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "digger_profiles_handle_format" CHECK ("digger_profiles"."handle" ~ '^[a-z0-9_]{1,30}$'),
	CONSTRAINT "digger_profiles_is_licensed_check" CHECK ("digger_profiles"."is_licensed" in ('yes', 'no', 'not_required')),
	CONSTRAINT "digger_profiles_rates_check" CHECK ("digger_profiles"."hourly_rate_min_cents" >= 0 and "digger_profiles"."hourly_rate_max_cents" >= 0 and ("digger_profiles"."hourly_rate_min_cents" is null or "digger_profiles"."hourly_rate_max_cents" is null or "digger_profiles"."hourly_rate_min_cents" <= "digger_profiles"."hourly_rate_max_cents")),
	CONSTRAINT "digger_profiles_years_check" CHECK ("digger_profiles"."years_experience" between 0 and 100),
	CONSTRAINT "digger_profiles_rating_check" CHECK ("digger_profiles"."average_rating" between 0 and 5 and "digger_profiles"."total_ratings" >= 0),
	CONSTRAINT "digger_profiles_completion_check" CHECK ("digger_profiles"."completion_rate" between 0 and 100),
	CONSTRAINT "digger_profiles_response_check" CHECK ("digger_profiles"."response_time_hours" >= 0),
	CONSTRAINT "digger_profiles_work_photos_check" CHECK (cardinality("digger_profiles"."work_photos") <= 12)
);
--> statement-breakpoint
CREATE TABLE "digger_references" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"digger_id" uuid NOT NULL,
	"reference_name" text NOT NULL,
	"reference_email" text NOT NULL,
	"reference_phone" text,
	"project_description" text,
	"is_verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digger_references_name_check" CHECK (char_length(btrim("digger_references"."reference_name")) > 0),
	CONSTRAINT "digger_references_email_check" CHECK (char_length(btrim("digger_references"."reference_email")) > 0)
);
--> statement-breakpoint
CREATE TABLE "gigs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"consumer_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"location" text NOT NULL,
	"timeline" text NOT NULL,
	"budget_min_cents" bigint,
	"budget_max_cents" bigint,
	"category_id" uuid NOT NULL,
	"deadline" date,
	"contact_preferences" text,
	"status" text DEFAULT 'open' NOT NULL,
	"purchase_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gigs_status_check" CHECK ("gigs"."status" in ('open', 'closed')),
	CONSTRAINT "gigs_title_length" CHECK (char_length(btrim("gigs"."title")) between 10 and 100),
	CONSTRAINT "gigs_description_length" CHECK (char_length(btrim("gigs"."description")) between 50 and 2000),
	CONSTRAINT "gigs_budget_check" CHECK ("gigs"."budget_min_cents" >= 0 and "gigs"."budget_max_cents" >= 0 and ("gigs"."budget_min_cents" is null or "gigs"."budget_max_cents" is null or "gigs"."budget_min_cents" <= "gigs"."budget_max_cents")),
	CONSTRAINT "gigs_purchase_count_check" CHECK ("gigs"."purchase_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "lead_issues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_purchase_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"issue_type" text NOT NULL,
	"description" text NOT NULL,
	"refund_percentage" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "lead_issues_type_check" CHECK ("lead_issues"."issue_type" in ('mistake', 'changed_mind', 'already_filled')),
	CONSTRAINT "lead_issues_status_check" CHECK ("lead_issues"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "lead_issues_refund_check" CHECK ("lead_issues"."refund_percentage" between 0 and 100),
	CONSTRAINT "lead_issues_description_check" CHECK (char_length(btrim("lead_issues"."description")) between 1 and 2000),
	CONSTRAINT "lead_issues_resolved_check" CHECK (("lead_issues"."status" = 'pending') = ("lead_issues"."resolved_at" is null))
);
--> statement-breakpoint
CREATE TABLE "lead_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"amount_paid_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider" text NOT NULL,
	"provider_session_id" text,
	"provider_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"purchased_at" timestamp with time zone,
	CONSTRAINT "lead_purchases_provider_session_id_unique" UNIQUE("provider_session_id"),
	CONSTRAINT "lead_purchases_status_check" CHECK ("lead_purchases"."status" in ('pending', 'completed', 'cancelled')),
	CONSTRAINT "lead_purchases_provider_check" CHECK ("lead_purchases"."provider" in ('stripe', 'test')),
	CONSTRAINT "lead_purchases_amount_check" CHECK ("lead_purchases"."amount_paid_cents" > 0),
	CONSTRAINT "lead_purchases_completed_check" CHECK (("lead_purchases"."status" = 'completed') = ("lead_purchases"."purchased_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "reference_contact_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference_id" uuid NOT NULL,
	"consumer_id" text NOT NULL,
	"digger_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "reference_contact_requests_status_check" CHECK ("reference_contact_requests"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "two_factors" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"verified" boolean DEFAULT true,
	"failed_verification_count" integer DEFAULT 0,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"user_type" text DEFAULT 'consumer' NOT NULL,
	"two_factor_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_user_type_check" CHECK ("users"."user_type" in ('consumer', 'digger')),
	CONSTRAINT "users_full_name_length" CHECK (char_length("users"."full_name") between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_category_id_categories_id_fk" FOREIGN KEY ("parent_category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digger_categories" ADD CONSTRAINT "digger_categories_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digger_categories" ADD CONSTRAINT "digger_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digger_profiles" ADD CONSTRAINT "digger_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digger_references" ADD CONSTRAINT "digger_references_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gigs" ADD CONSTRAINT "gigs_consumer_id_users_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gigs" ADD CONSTRAINT "gigs_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_lead_purchase_id_lead_purchases_id_fk" FOREIGN KEY ("lead_purchase_id") REFERENCES "public"."lead_purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD CONSTRAINT "lead_purchases_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD CONSTRAINT "lead_purchases_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reference_contact_requests" ADD CONSTRAINT "reference_contact_requests_reference_id_digger_references_id_fk" FOREIGN KEY ("reference_id") REFERENCES "public"."digger_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reference_contact_requests" ADD CONSTRAINT "reference_contact_requests_consumer_id_users_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reference_contact_requests" ADD CONSTRAINT "reference_contact_requests_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factors" ADD CONSTRAINT "two_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_user_id_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_provider_account_key" ON "accounts" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_category_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_parent_name_key" ON "categories" USING btree (coalesce("parent_category_id", '00000000-0000-0000-0000-000000000000'::uuid),"name");--> statement-breakpoint
CREATE INDEX "digger_categories_category_idx" ON "digger_categories" USING btree ("category_id","digger_id");--> statement-breakpoint
CREATE UNIQUE INDEX "digger_profiles_handle_key" ON "digger_profiles" USING btree ("handle");--> statement-breakpoint
CREATE INDEX "digger_profiles_rating_idx" ON "digger_profiles" USING btree ("average_rating" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "digger_profiles_experience_idx" ON "digger_profiles" USING btree ("years_experience" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "digger_profiles_rate_idx" ON "digger_profiles" USING btree ("hourly_rate_min_cents","id");--> statement-breakpoint
CREATE INDEX "digger_profiles_handle_trgm" ON "digger_profiles" USING gin ("handle" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "digger_profiles_profession_trgm" ON "digger_profiles" USING gin ("profession" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "digger_profiles_bio_trgm" ON "digger_profiles" USING gin ("bio" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "digger_references_digger_idx" ON "digger_references" USING btree ("digger_id","created_at");--> statement-breakpoint
CREATE INDEX "gigs_open_newest_idx" ON "gigs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "gigs_open_category_newest_idx" ON "gigs" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "gigs_consumer_newest_idx" ON "gigs" USING btree ("consumer_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "gigs_title_trgm" ON "gigs" USING gin ("title" gin_trgm_ops) WHERE "gigs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "gigs_description_trgm" ON "gigs" USING gin ("description" gin_trgm_ops) WHERE "gigs"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "lead_issues_purchase_key" ON "lead_issues" USING btree ("lead_purchase_id");--> statement-breakpoint
CREATE INDEX "lead_issues_digger_idx" ON "lead_issues" USING btree ("digger_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_purchases_completed_key" ON "lead_purchases" USING btree ("gig_id","digger_id") WHERE "lead_purchases"."status" = 'completed';--> statement-breakpoint
CREATE INDEX "lead_purchases_digger_idx" ON "lead_purchases" USING btree ("digger_id","purchased_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "lead_purchases_gig_idx" ON "lead_purchases" USING btree ("gig_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reference_contact_requests_reference_consumer_key" ON "reference_contact_requests" USING btree ("reference_id","consumer_id");--> statement-breakpoint
CREATE INDEX "reference_contact_requests_digger_idx" ON "reference_contact_requests" USING btree ("digger_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "reference_contact_requests_consumer_idx" ON "reference_contact_requests" USING btree ("consumer_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "two_factors_user_id_idx" ON "two_factors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");