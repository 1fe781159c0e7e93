-- Quotes (issue 33; docs/decisions/0043-quotes.md): a digger's priced offer in a thread, in one
-- of three shapes (fixed price, hourly rate × hours, estimate range), money in integer cents
-- from $1 to $1,000,000. A revision is a new row naming the one it replaces. One OPEN quote per
-- gig and digger, one ACCEPTED quote per gig: partial unique indexes, so a race loses here.
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"replaces_id" uuid,
	"type" text NOT NULL,
	"amount_cents" integer,
	"rate_cents" integer,
	"hours" numeric(6, 1),
	"low_cents" integer,
	"high_cents" integer,
	"included" text NOT NULL,
	"start_date" date,
	"valid_until" date NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decline_reason" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_status_check" CHECK ("quotes"."status" in ('open', 'withdrawn', 'replaced', 'accepted', 'declined', 'not_chosen')),
	CONSTRAINT "quotes_price_check" CHECK (
		("quotes"."type" = 'fixed' and "quotes"."amount_cents" between 100 and 100000000 and "quotes"."rate_cents" is null and "quotes"."hours" is null and "quotes"."low_cents" is null and "quotes"."high_cents" is null)
		or ("quotes"."type" = 'hourly' and "quotes"."rate_cents" between 100 and 100000000 and "quotes"."hours" between 0.5 and 1000 and "quotes"."hours" * 2 = trunc("quotes"."hours" * 2) and "quotes"."amount_cents" is null and "quotes"."low_cents" is null and "quotes"."high_cents" is null)
		or ("quotes"."type" = 'estimate' and "quotes"."low_cents" between 100 and 100000000 and "quotes"."high_cents" between 100 and 100000000 and "quotes"."low_cents" < "quotes"."high_cents" and "quotes"."amount_cents" is null and "quotes"."rate_cents" is null and "quotes"."hours" is null)
	),
	CONSTRAINT "quotes_included_check" CHECK (char_length(btrim("quotes"."included")) between 1 and 2000),
	CONSTRAINT "quotes_decline_reason_check" CHECK ("quotes"."decline_reason" is null or ("quotes"."status" = 'declined' and char_length("quotes"."decline_reason") <= 1000)),
	CONSTRAINT "quotes_not_self_check" CHECK ("quotes"."replaces_id" is null or "quotes"."replaces_id" <> "quotes"."id")
);
--> statement-breakpoint
CREATE TABLE "quote_line_items" (
	"quote_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "quote_line_items_quote_id_position_pk" PRIMARY KEY("quote_id","position"),
	-- Positions 0 to 19 with the primary key: at most 20 line items a quote.
	CONSTRAINT "quote_line_items_position_check" CHECK ("quote_line_items"."position" between 0 and 19),
	CONSTRAINT "quote_line_items_description_check" CHECK (char_length(btrim("quote_line_items"."description")) between 1 and 200),
	CONSTRAINT "quote_line_items_amount_check" CHECK ("quote_line_items"."amount_cents" between 100 and 100000000)
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_replaces_id_quotes_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_line_items" ADD CONSTRAINT "quote_line_items_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_thread_idx" ON "quotes" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "quotes_gig_idx" ON "quotes" USING btree ("gig_id");--> statement-breakpoint
CREATE INDEX "quotes_digger_idx" ON "quotes" USING btree ("digger_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_one_open_key" ON "quotes" USING btree ("gig_id","digger_id") WHERE "quotes"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_one_accepted_key" ON "quotes" USING btree ("gig_id") WHERE "quotes"."status" = 'accepted';
