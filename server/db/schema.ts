/**
 * The whole database schema. Auth tables follow Better Auth's model (text ids, camelCase
 * properties); the marketplace tables use uuid ids. Money is integer cents, time is
 * timestamptz. Enum-like columns are text with CHECK constraints so that a new value is
 * a one-line migration.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
/**
 * What each search looks in: the searchable fields as one lower-cased text, stored with the
 * row. A search is then one LIKE per row (half the cost of ILIKE, which lower-cases the text
 * on every comparison) and one trigram index on this column, whose statistics tell the
 * planner how many rows match (docs/decisions/0008-search-indexes.md).
 */
const searchText = (fields: string) => text("search_text").generatedAlwaysAs(sql.raw(`lower(${fields})`));
const trigram = (column: AnyPgColumn) => sql`${column} gin_trgm_ops`;
/**
 * Search indexes are read far more than written: with GIN's fast update on, new rows wait
 * in a pending list that every search must scan (and that only VACUUM empties; PGlite has
 * no autovacuum), so the planner rightly stops using the index. Off, each insert updates it.
 */
const searchIndexOptions = { fastupdate: false } as const;

// ---------------------------------------------------------------- accounts (Better Auth)

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** The spec's profile full_name. */
    name: text("full_name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    userType: text("user_type", { enum: ["consumer", "digger"] }).notNull().default("consumer"),
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** The last TOTP time step (30 s) accepted for this user: a code is good for one sign-in. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** Promotional e-mail on, or off (the default: opt-in, migration 0051); transactional e-mail is always sent. */
    promotionalEmail: boolean("promotional_email").notNull().default(false),
    /** When the user asked for deletion: signed out, hidden, and purged after the delay. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** When the purge anonymised the row (kept only for payment records that point at it). */
    purgedAt: timestamp("purged_at", { withTimezone: true }),
    /**
     * When an operator suspended the account; null: not suspended. Set by the operator console
     * (server/ops/account-standing-change.ts); lead alerts leave suspended accounts out (server/alerts/).
     */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /** The operator's reason for the suspension, shown in the console (never to the public). */
    suspendedReason: text("suspended_reason"),
    /**
     * Since when the account may open the operator console (/ops); null: not an operator. Set
     * only by `npm run operator -- grant EMAIL` (server/ops/operator-cli.ts) or the local seed,
     * never by a form or Better Auth's API (docs/decisions/0026-operator-console.md).
     */
    operatorSince: timestamp("operator_since", { withTimezone: true }),
    /**
     * Signs the user's reply-by-e-mail addresses (server/mail/reply-address.ts): one more on a
     * password change (migration 0047's trigger) or a sign-out everywhere (auth/endpoint-rules.ts),
     * which kills every address issued before.
     */
    replyKeyGeneration: integer("reply_key_generation").notNull().default(0),
    /**
     * The IANA zone every time this user reads is written in (issue 47, server/reader-time.ts):
     * the browser's at sign-up or sign-in, or chosen on /account; null: DEFAULT_TIME_ZONE.
     */
    timeZone: text("time_zone"),
    /**
     * The account's number to reuse (/account, issue 49), in E.164: once verified
     * (phone_verifications), it fills in new gigs. Null: none given.
     */
    phone: text("phone"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    // The purge's queue: accounts whose deletion is requested and not yet carried out.
    index("users_purge_due_idx")
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null and ${t.purgedAt} is null`),
    check("users_purged_check", sql`${t.purgedAt} is null or ${t.deletedAt} is not null`),
    check("users_user_type_check", sql`${t.userType} in ('consumer', 'digger')`),
    check("users_full_name_length", sql`char_length(${t.name}) between 1 and 200`),
    check("users_suspended_reason_check", sql`(${t.suspendedAt} is null) = (${t.suspendedReason} is null)`),
    check("users_time_zone_length", sql`char_length(${t.timeZone}) <= 64`),
    check("users_phone_check", sql`${t.phone} ~ '^\\+[1-9][0-9]{6,14}$'`),
    // The console's Users list (server/ops/user-search.ts): newest first, and "contains" on name and e-mail.
    index("users_newest_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("users_search_trgm").using("gin", sql`lower(${t.name} || ' ' || ${t.email}) gin_trgm_ops`).with(searchIndexOptions),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("accounts_user_id_idx").on(t.userId),
    uniqueIndex("accounts_provider_account_key").on(t.providerId, t.accountId),
  ],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factors_user_id_idx").on(t.userId)],
);

// ---------------------------------------------------------------- marketplace

export const categories = pgTable(
  "categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description"),
    parentCategoryId: uuid("parent_category_id").references((): AnyPgColumn => categories.id, {
      onDelete: "restrict",
    }),
  },
  (t) => [
    index("categories_parent_idx").on(t.parentCategoryId, t.name),
    uniqueIndex("categories_parent_name_key").on(
      sql`coalesce(${t.parentCategoryId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.name,
    ),
  ],
);

export const diggerProfiles = pgTable(
  "digger_profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    handle: text("handle").notNull(),
    businessName: text("business_name").notNull(),
    phone: text("phone").notNull(),
    location: text("location").notNull(),
    profession: text("profession").notNull(),
    bio: text("bio").notNull(),
    searchText: searchText("handle || ' ' || profession || ' ' || bio"),
    profileImageUrl: text("profile_image_url"),
    portfolioUrl: text("portfolio_url"),
    hourlyRateMinCents: integer("hourly_rate_min_cents"),
    hourlyRateMaxCents: integer("hourly_rate_max_cents"),
    yearsExperience: integer("years_experience"),
    availability: text("availability"),
    averageRating: numeric("average_rating", { precision: 3, scale: 2, mode: "number" })
      .notNull()
      .default(0),
    totalRatings: integer("total_ratings").notNull().default(0),
    verified: boolean("verified").notNull().default(false),
    isInsured: boolean("is_insured").notNull().default(false),
    isBonded: boolean("is_bonded").notNull().default(false),
    isLicensed: text("is_licensed", { enum: ["yes", "no", "not_required"] })
      .notNull()
      .default("not_required"),
    completionRate: integer("completion_rate").notNull().default(0),
    responseTimeHours: integer("response_time_hours"),
    workPhotos: text("work_photos").array().notNull().default(sql`'{}'::text[]`),
    /** Set when the account is deleted: every public query leaves hidden profiles out. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("digger_profiles_handle_key").on(t.handle),
    check("digger_profiles_handle_format", sql`${t.handle} ~ '^[a-z0-9_]{1,30}$'`),
    check("digger_profiles_is_licensed_check", sql`${t.isLicensed} in ('yes', 'no', 'not_required')`),
    check(
      "digger_profiles_rates_check",
      sql`${t.hourlyRateMinCents} >= 0 and ${t.hourlyRateMaxCents} >= 0 and (${t.hourlyRateMinCents} is null or ${t.hourlyRateMaxCents} is null or ${t.hourlyRateMinCents} <= ${t.hourlyRateMaxCents})`,
    ),
    check("digger_profiles_years_check", sql`${t.yearsExperience} between 0 and 100`),
    check("digger_profiles_rating_check", sql`${t.averageRating} between 0 and 5 and ${t.totalRatings} >= 0`),
    check("digger_profiles_completion_check", sql`${t.completionRate} between 0 and 100`),
    check("digger_profiles_response_check", sql`${t.responseTimeHours} >= 0`),
    check("digger_profiles_work_photos_check", sql`cardinality(${t.workPhotos}) <= 12`),
    // Browse Talent sorts, each with id as the tie-breaker for stable pagination.
    index("digger_profiles_rating_idx").on(t.averageRating.desc().nullsFirst(), t.id),
    index("digger_profiles_experience_idx").on(t.yearsExperience.desc().nullsLast(), t.id),
    index("digger_profiles_rate_idx").on(t.hourlyRateMinCents.asc().nullsLast(), t.id),
    // Case-insensitive substring search on the fields the spec names.
    index("digger_profiles_search_trgm").using("gin", trigram(t.searchText)).with(searchIndexOptions),
    // The console's Users search by handle (server/ops/user-search.ts).
    index("digger_profiles_handle_trgm").using("gin", trigram(t.handle)).with(searchIndexOptions),
    // Browse Talent's Location filter.
    index("digger_profiles_location_trgm").using("gin", sql`lower(${t.location}) gin_trgm_ops`).with(searchIndexOptions),
  ],
);

export const diggerCategories = pgTable(
  "digger_categories",
  {
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.diggerId, t.categoryId] }),
    index("digger_categories_category_idx").on(t.categoryId, t.diggerId),
  ],
);

/** The spec's "references" (a reserved word in SQL, hence the table name). */
export const diggerReferences = pgTable(
  "digger_references",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    referenceName: text("reference_name").notNull(),
    referenceEmail: text("reference_email").notNull(),
    referencePhone: text("reference_phone"),
    projectDescription: text("project_description"),
    isVerified: boolean("is_verified").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("digger_references_digger_idx").on(t.diggerId, t.createdAt),
    check("digger_references_name_check", sql`char_length(btrim(${t.referenceName})) > 0`),
    check("digger_references_email_check", sql`char_length(btrim(${t.referenceEmail})) > 0`),
  ],
);

export const referenceContactRequests = pgTable(
  "reference_contact_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    referenceId: uuid("reference_id")
      .notNull()
      .references(() => diggerReferences.id, { onDelete: "cascade" }),
    clientId: text("consumer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("reference_contact_requests_reference_consumer_key").on(t.referenceId, t.clientId),
    index("reference_contact_requests_digger_idx").on(t.diggerId, t.createdAt.desc().nullsFirst()),
    index("reference_contact_requests_consumer_idx").on(t.clientId),
    check(
      "reference_contact_requests_status_check",
      sql`${t.status} in ('pending', 'approved', 'rejected')`,
    ),
  ],
);

/** The partial indexes' predicate: the gig-row terms of forSale() (server/leads/for-sale.ts) that lists filter on. */
const listedGig = (t: {
  status: AnyPgColumn;
  published: AnyPgColumn;
  purchaseCount: AnyPgColumn;
  maxDiggers: AnyPgColumn;
  hired: AnyPgColumn;
  openForMore: AnyPgColumn;
  awaitingReply: AnyPgColumn;
}) =>
  sql`${t.status} = 'open' and ${t.published} and ${t.purchaseCount} < ${t.maxDiggers} and (not ${t.hired} or ${t.openForMore}) and not ${t.awaitingReply}`;

export const gigs = pgTable(
  "gigs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("consumer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    // The location too: a search for a town finds the gigs there (issue 23).
    searchText: searchText("title || ' ' || description || ' ' || location"),
    location: text("location").notNull(),
    timeline: text("timeline").notNull(),
    budgetMinCents: bigint("budget_min_cents", { mode: "number" }),
    budgetMaxCents: bigint("budget_max_cents", { mode: "number" }),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    deadline: date("deadline", { mode: "string" }),
    contactPreferences: text("contact_preferences"),
    /** When an operator hid the gig, and why (the owner is told); null: not hidden. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenReason: text("hidden_reason"),
    /** The owner's account is suspended: kept by a trigger on users.suspended_at (migration 0021). */
    ownerSuspended: boolean("owner_suspended").notNull().default(false),
    /** The owner's account is deleted: kept by triggers on users.deleted_at and on insert (migration 0032). */
    ownerDeleted: boolean("owner_deleted").notNull().default(false),
    /** The client's phone for this gig (optional): private like their e-mail, only for the gig's buyers. */
    contactPhone: text("contact_phone"),
    status: text("status", { enum: ["open", "closed"] }).notNull().default("open"),
    /**
     * The client's e-mail is confirmed: only published gigs are public (browse, pages, buying).
     * Kept equal to users.email_verified by triggers (migration 0009), never written by the app.
     */
    published: boolean("published").notNull().default(false),
    /** Completed purchases; raised in the same transaction that completes one. */
    purchaseCount: integer("purchase_count").notNull().default(0),
    /**
     * How many diggers may buy the lead (1 to 5, core/lead-spots.ts). /post-gig always names it
     * (3 unless chosen); the column's default 5 is for the gigs posted before the cap existed.
     */
    maxDiggers: integer("max_diggers").notNull().default(5),
    /**
     * The client closed the gig saying they hired someone ('Yes, I hired someone'); only a closed
     * gig with completed purchases is filled, and reopening it clears this (decision 0021).
     */
    filledAt: timestamp("filled_at", { withTimezone: true }),
    /**
     * Its client deleted it once checkouts had been started for it (decision 0030): the purchase
     * rows stay, so the row stays, closed and without its text, and the gig is gone everywhere.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * When the gig last became visible (open and published: posted by a confirmed client, its
     * client confirmed later, or reopened); null while it never was. Kept by a trigger (migration
     * 0017), never written by the app: the daily lead-alert digest lists the day's gigs by it.
     */
    visibleSince: timestamp("visible_since", { withTimezone: true }),
    /**
     * A digger is hired for it (a row in hires: an accepted quote or Mark as Hired): its lead is off
     * sale (issue 47). Kept by a trigger on hires (migration 0050), never written by the app.
     */
    hired: boolean("hired").notNull().default(false),
    /** 'Keep it open for more diggers': on sale though hired; the trigger clears it with the last hire. */
    openForMore: boolean("open_for_more").notNull().default(false),
    /**
     * Paused: 48 hours after a covered first answer its client had opened none of its threads
     * (issue 48, migration 0052). Set by the reply guarantee's check, cleared when the client
     * opens any of them; off sale meanwhile.
     */
    awaitingReply: boolean("awaiting_reply").notNull().default(false),
    /**
     * When its client verified this gig's number (issue 49): kept by triggers on gigs and on
     * phone_verifications (migration 0054), never written by the app. Null: no phone, or not verified.
     */
    phoneVerifiedAt: timestamp("phone_verified_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("gigs_status_check", sql`${t.status} in ('open', 'closed')`),
    check("gigs_title_length", sql`char_length(btrim(${t.title})) between 10 and 100`),
    check("gigs_description_length", sql`char_length(btrim(${t.description})) between 50 and 2000`),
    check(
      "gigs_budget_check",
      sql`${t.budgetMinCents} >= 0 and ${t.budgetMaxCents} >= 0 and (${t.budgetMinCents} is null or ${t.budgetMaxCents} is null or ${t.budgetMinCents} <= ${t.budgetMaxCents})`,
    ),
    check("gigs_purchase_count_check", sql`${t.purchaseCount} >= 0`),
    check("gigs_max_diggers_check", sql`${t.maxDiggers} between 1 and 5`),
    check("gigs_contact_phone_check", sql`${t.contactPhone} ~ '^[0-9 +()-]{7,20}$'`),
    check("gigs_filled_closed_check", sql`${t.filledAt} is null or ${t.status} = 'closed'`),
    check("gigs_deleted_closed_check", sql`${t.deletedAt} is null or ${t.status} = 'closed'`),
    check("gigs_hidden_reason_check", sql`(${t.hiddenAt} is null) = (${t.hiddenReason} is null)`),
    // Browse: listed gigs (open, published, not full of completed purchases, not held by a hire:
    // forSale() in server/leads/for-sale.ts) newest first, overall and per category; id breaks ties.
    index("gigs_open_newest_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(listedGig(t)),
    index("gigs_open_category_newest_idx")
      .on(t.categoryId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(listedGig(t)),
    // Browse Gigs' 'Verified phone only' (issue 49).
    index("gigs_open_verified_newest_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${listedGig(t)} and ${t.phoneVerifiedAt} is not null`),
    index("gigs_consumer_newest_idx").on(t.clientId, t.createdAt.desc().nullsFirst()),
    // The daily digest: the gigs that became visible in the last day, newest first.
    index("gigs_visible_since_idx")
      .on(t.visibleSince.desc().nullsFirst())
      .where(sql`${t.status} = 'open' and ${t.published}`),
    index("gigs_open_search_trgm")
      .using("gin", trigram(t.searchText))
      .with(searchIndexOptions)
      .where(listedGig(t)),
    // Browse Gigs' Location filter: "contains", case-insensitive, like the search.
    index("gigs_open_location_trgm")
      .using("gin", sql`lower(${t.location}) gin_trgm_ops`)
      .with(searchIndexOptions)
      .where(listedGig(t)),
  ],
);

export const leadPurchases = pgTable(
  "lead_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    amountPaidCents: integer("amount_paid_cents").notNull(),
    status: text("status", { enum: ["pending", "completed", "cancelled"] })
      .notNull()
      .default("pending"),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    /** The provider's checkout session id (Stripe's cs_..., or the test checkout's). */
    providerSessionId: text("provider_session_id").unique(),
    providerPaymentId: text("provider_payment_id"),
    /** Where the browser pays: the same digger's second Buy continues this checkout while it holds its spot. */
    checkoutUrl: text("checkout_url"),
    /**
     * The network (an IPv4 /24, an IPv6 /64: security/network.ts) of the client that started the
     * checkout: new accounts' live holds are capped per network (decision 0030, issue 45). Null
     * on rows from before it.
     */
    network: text("network"),
    createdAt: createdAt(),
    purchasedAt: timestamp("purchased_at", { withTimezone: true }),
    /**
     * The reply guarantee (issue 48, migration 0052): 48 hours after the digger's first answer,
     * set by the database when that answer came within 24 hours of the purchase (covered); null:
     * not covered (yet).
     */
    guaranteeDueAt: timestamp("guarantee_due_at", { withTimezone: true }),
    /** How the guarantee ended (core/reply-guarantee.ts's `GuaranteeOutcome`); null while due or not covered. */
    guaranteeOutcome: text("guarantee_outcome", { enum: ["refunded", "answered", "escalated", "declined", "skipped"] }),
    guaranteeSettledAt: timestamp("guarantee_settled_at", { withTimezone: true }),
    /**
     * When the gig's phone had been verified, as the purchase completed (issue 49; set by a trigger,
     * migration 0054); null: not verified then. Decides a Wrong Phone Number report.
     */
    phoneVerifiedAt: timestamp("phone_verified_at", { withTimezone: true }),
  },
  (t) => [
    check("lead_purchases_status_check", sql`${t.status} in ('pending', 'completed', 'cancelled')`),
    check("lead_purchases_provider_check", sql`${t.provider} in ('stripe', 'test')`),
    check("lead_purchases_amount_check", sql`${t.amountPaidCents} > 0`),
    check(
      "lead_purchases_completed_check",
      sql`(${t.status} = 'completed') = (${t.purchasedAt} is not null)`,
    ),
    // One completed purchase per (gig, digger); pending checkouts may be retried.
    uniqueIndex("lead_purchases_completed_key")
      .on(t.gigId, t.diggerId)
      .where(sql`${t.status} = 'completed'`),
    index("lead_purchases_digger_idx").on(t.diggerId, t.purchasedAt.desc().nullsFirst()),
    index("lead_purchases_gig_idx").on(t.gigId),
    // Live holds of a gig (pending, started within HOLD_MINUTES): spots taken, on every Browse row.
    index("lead_purchases_hold_idx").on(t.gigId, t.createdAt).where(sql`${t.status} = 'pending'`),
    // Live holds started from one network: the per-network cap on new accounts' holds.
    // The guarantee's checks due, and the operators' queue of guarantees past the digger's bound.
    index("lead_purchases_guarantee_due_idx")
      .on(t.guaranteeDueAt)
      .where(sql`${t.guaranteeDueAt} is not null and ${t.guaranteeOutcome} is null`),
    index("lead_purchases_guarantee_escalated_idx").on(t.guaranteeSettledAt).where(sql`${t.guaranteeOutcome} = 'escalated'`),
    check("lead_purchases_guarantee_outcome_check", sql`${t.guaranteeOutcome} in ('refunded', 'answered', 'escalated', 'declined', 'skipped')`),
    check(
      "lead_purchases_guarantee_settled_check",
      sql`${t.guaranteeOutcome} is null or ${t.guaranteeOutcome} = 'escalated' or ${t.guaranteeSettledAt} is not null`,
    ),
    index("lead_purchases_network_hold_idx")
      .on(t.network, t.createdAt)
      .where(sql`${t.status} = 'pending' and ${t.network} is not null`),
  ],
);

export const leadIssues = pgTable(
  "lead_issues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    leadPurchaseId: uuid("lead_purchase_id")
      .notNull()
      .references(() => leadPurchases.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    issueType: text("issue_type", { enum: ["mistake", "changed_mind", "already_filled", "fake_request", "wrong_phone"] }).notNull(),
    description: text("description").notNull(),
    refundPercentage: integer("refund_percentage").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /**
     * The client's deadline, fixed at report time (LEAD_ISSUE_RESPONSE_HOURS then): a pending
     * issue still pending after it is approved automatically (leads/issue-deadlines.ts). The
     * app always sets it; the default (72 hours, LEAD_ISSUE_RESPONSE_HOURS' own) is for rows
     * written by hand.
     */
    respondBy: timestamp("respond_by", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '72 hours'`),
    /** Who decided: the gig's owner, the automatic approval after `respond_by`, or an operator; null while pending. */
    decidedBy: text("decided_by", { enum: ["client", "automatic", "operator", "guarantee"] }),
    /**
     * Set when an overdue issue went to the operators instead of being approved automatically
     * (its digger had 2 automatic approvals in 30 days; docs/decisions/0031), with their own
     * deadline: past `operator_respond_by` it is approved automatically after all.
     */
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
    operatorRespondBy: timestamp("operator_respond_by", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("lead_issues_purchase_key").on(t.leadPurchaseId),
    index("lead_issues_digger_idx").on(t.diggerId),
    // The automatic approval's scan: pending issues by deadline.
    index("lead_issues_pending_respond_by_idx").on(t.respondBy).where(sql`${t.status} = 'pending'`),
    index("lead_issues_digger_automatic_idx").on(t.diggerId, t.resolvedAt).where(sql`${t.decidedBy} = 'automatic'`),
    index("lead_issues_digger_guarantee_idx").on(t.diggerId, t.resolvedAt).where(sql`${t.decidedBy} = 'guarantee'`),
    check("lead_issues_decided_by_check", sql`${t.decidedBy} in ('client', 'automatic', 'operator', 'guarantee')`),
    check("lead_issues_escalated_check", sql`(${t.escalatedAt} is null) = (${t.operatorRespondBy} is null)`),
    check("lead_issues_operator_check", sql`${t.decidedBy} <> 'operator' or ${t.escalatedAt} is not null`),
    // A pending issue has no decider; a decided one written by hand (before 0014, tests) may lack one.
    check("lead_issues_decided_check", sql`${t.status} <> 'pending' or ${t.decidedBy} is null`),
    check("lead_issues_automatic_check", sql`${t.decidedBy} not in ('automatic', 'guarantee') or ${t.status} = 'approved'`),
    check("lead_issues_type_check", sql`${t.issueType} in ('mistake', 'changed_mind', 'already_filled', 'fake_request', 'wrong_phone')`),
    check("lead_issues_status_check", sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check("lead_issues_refund_check", sql`${t.refundPercentage} between 0 and 100`),
    check(
      "lead_issues_description_check",
      sql`char_length(btrim(${t.description})) between 1 and 2000`,
    ),
    check(
      "lead_issues_resolved_check",
      sql`(${t.status} = 'pending') = (${t.resolvedAt} is null)`,
    ),
  ],
);

// ---------------------------------------------------------------- trust (issue 20)

/**
 * A client's word that they hired a digger who bought their gig's lead: one row per (gig,
 * digger), written only for a completed purchase (server/reviews/hires.ts). Feeds the digger's
 * completion_rate, kept by the database (migration 0016, docs/decisions/0022-earned-trust.md).
 */
export const hires = pgTable(
  "hires",
  {
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.gigId, t.diggerId] }), index("hires_digger_idx").on(t.diggerId)],
);

/**
 * A client's review of a digger who bought their gig's lead (completed, not fully refunded):
 * one per (gig, digger), with at most one public reply by the digger. The reviewer is the
 * gig's client (gigs.consumer_id). Every insert, edit or delete recomputes the digger's
 * average_rating and total_ratings in the same transaction (trigger, migration 0016).
 */
export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    leadPurchaseId: uuid("lead_purchase_id")
      .notNull()
      .references(() => leadPurchases.id, { onDelete: "restrict" }),
    rating: integer("rating").notNull(),
    body: text("body").notNull(),
    reply: text("reply"),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    /** When an operator hid it after a report: off the profile and out of the figures (migration 0023). */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    /**
     * When it became visible to the digger and the public (issue 51): null while its hire's review
     * window is blind (review_windows); a review outside a window is published as it is written
     * (the default; the writer of a blind one sets null).
     */
    publishedAt: timestamp("published_at", { withTimezone: true }).defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("reviews_gig_digger_key").on(t.gigId, t.diggerId),
    // The profile's list: a digger's reviews, newest first.
    index("reviews_digger_newest_idx").on(t.diggerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check("reviews_rating_check", sql`${t.rating} between 1 and 5`),
    check("reviews_body_length", sql`char_length(btrim(${t.body})) between 20 and 2000`),
    check("reviews_reply_length", sql`${t.reply} is null or char_length(btrim(${t.reply})) between 10 and 1000`),
    check("reviews_replied_check", sql`(${t.reply} is null) = (${t.repliedAt} is null)`),
  ],
);

/**
 * The two-way review window of one hire (issue 51, docs/decisions/0077-two-way-reviews.md):
 * opened when the hire is recorded (server/reviews/hires.ts) on a purchase not refunded in full,
 * ending REVIEW_WINDOW_DAYS later. While `published_at` is null, both sides' reviews of the hire
 * are blind; the second review or the `reviews.publish` job at `ends_at` publishes both at once.
 * Removing the hire before that closes it (`closed_at`) and discards the unpublished reviews; a
 * new hire reopens it with its first end. A published window outlives its hire. Hires recorded before the change have a published window (migration 0056).
 */
export const reviewWindows = pgTable(
  "review_windows",
  {
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    leadPurchaseId: uuid("lead_purchase_id")
      .notNull()
      .references(() => leadPurchases.id, { onDelete: "restrict" }),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** When the reminder REVIEW_REMINDER_DAYS before the end went out (once). */
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    /**
     * When its hire was removed while it was blind (its unpublished reviews discarded); a new hire
     * of the pair clears it, keeping `ends_at` (migration 0057): no fresh 14 days by re-hiring.
     */
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.gigId, t.diggerId] }),
    // The sweep: blind windows by their end.
    index("review_windows_due_idx").on(t.endsAt).where(sql`${t.publishedAt} is null`),
    check("review_windows_ends_check", sql`${t.endsAt} > ${t.openedAt}`),
  ],
);

/**
 * A digger's review of the client who hired them (issue 51): one per (gig, digger), only inside
 * the hire's review window, blind like the client's review until the window publishes. Three
 * optional yes/no answers (null: not answered). The client's figures in client_records are
 * derived from the published, shown, not withdrawn ones by trigger (migration 0056).
 */
export const clientReviews = pgTable(
  "client_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    leadPurchaseId: uuid("lead_purchase_id")
      .notNull()
      .references(() => leadPurchases.id, { onDelete: "restrict" }),
    /** The reviewed client (the gig's consumer_id), kept here for the client's list and figures. */
    clientId: text("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    body: text("body").notNull(),
    /** 'The job was as described'. */
    asDescribed: boolean("as_described"),
    /** 'Easy to reach'. */
    easyToReach: boolean("easy_to_reach"),
    /** 'Paid as agreed'. */
    paidAsAgreed: boolean("paid_as_agreed"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** When an operator hid it after a report (the console's Reviews queue). */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("client_reviews_gig_digger_key").on(t.gigId, t.diggerId),
    // The gig page's Client reviews section: a client's published reviews, newest first.
    index("client_reviews_client_published_idx")
      .on(t.clientId, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.publishedAt} is not null and ${t.hiddenAt} is null`),
    check("client_reviews_rating_check", sql`${t.rating} between 1 and 5`),
    check("client_reviews_body_length", sql`char_length(btrim(${t.body})) between 20 and 2000`),
  ],
);

/**
 * A signed-in user's report of a review (issue 22), one per user and review, with a reason.
 * Open until an operator hides the review or keeps it (`resolution`), which closes every open
 * report of that review at once.
 */
export const reviewReports = pgTable(
  "review_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The review of a digger reported, or (issue 51) `clientReviewId`, a digger's review of a client: exactly one. */
    reviewId: uuid("review_id").references(() => reviews.id, { onDelete: "cascade" }),
    clientReviewId: uuid("client_review_id").references(() => clientReviews.id, { onDelete: "cascade" }),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolution: text("resolution", { enum: ["hidden", "kept"] }),
  },
  (t) => [
    uniqueIndex("review_reports_review_reporter_key").on(t.reviewId, t.reporterId),
    uniqueIndex("review_reports_client_review_reporter_key").on(t.clientReviewId, t.reporterId),
    check("review_reports_subject_check", sql`(${t.reviewId} is null) <> (${t.clientReviewId} is null)`),
    // The Reviews queue: reviews with open reports, oldest report first.
    index("review_reports_open_idx").on(t.createdAt, t.id).where(sql`${t.resolvedAt} is null`),
    check("review_reports_reason_length", sql`char_length(btrim(${t.reason})) between 10 and 500`),
    check("review_reports_resolution_check", sql`(${t.resolvedAt} is null) = (${t.resolution} is null) and (${t.resolution} is null or ${t.resolution} in ('hidden', 'kept'))`),
  ],
);

// ---------------------------------------------------------------- lead alerts

/**
 * A digger's lead alerts (server/alerts/, docs/decisions/0023-lead-alerts.md), once saved on
 * /account or turned off by an e-mail's link. A digger without a row has the defaults: Instant,
 * for the categories of their profile (digger_categories), no keyword, location or price limit.
 */
export const leadAlertSettings = pgTable(
  "lead_alert_settings",
  {
    diggerId: uuid("digger_id")
      .primaryKey()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    frequency: text("frequency", { enum: ["instant", "daily", "off"] }).notNull().default("instant"),
    /** Each must be in the gig's title or description (case-insensitive, like the search). */
    keywords: text("keywords").array().notNull().default(sql`'{}'::text[]`),
    /** Must be in the gig's location (case-insensitive); null: anywhere. */
    location: text("location"),
    /** Leads priced above it are left out; null: any price. */
    maxLeadPriceCents: integer("max_lead_price_cents"),
    /** Only gigs whose phone its client verified (issue 49). */
    verifiedPhoneOnly: boolean("verified_phone_only").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("lead_alert_settings_frequency_check", sql`${t.frequency} in ('instant', 'daily', 'off')`),
    check("lead_alert_settings_keywords_check", sql`cardinality(${t.keywords}) <= 10`),
    check("lead_alert_settings_location_check", sql`char_length(${t.location}) between 1 and 100`),
    check("lead_alert_settings_price_check", sql`${t.maxLeadPriceCents} > 0`),
    // The digest's list of diggers, by id for its batches.
    index("lead_alert_settings_daily_idx").on(t.diggerId).where(sql`${t.frequency} = 'daily'`),
  ],
);

/** The categories of a saved lead alert: a gig matches in one of them or in a sub-category of one. */
export const leadAlertCategories = pgTable(
  "lead_alert_categories",
  {
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => leadAlertSettings.diggerId, { onDelete: "cascade" }),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
  },
  (t) => [
    primaryKey({ columns: [t.diggerId, t.categoryId] }),
    // Matching a gig: the diggers of its category and of its parent.
    index("lead_alert_categories_category_idx").on(t.categoryId, t.diggerId),
  ],
);

/**
 * One row per instant alert sent: a digger hears about a gig once, whatever reruns it (two
 * workers, a retry, a reopened gig). Claimed in the transaction that records the e-mail.
 */
export const leadAlerts = pgTable(
  "lead_alerts",
  {
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "cascade" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    emailId: uuid("email_id").references(() => emails.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.gigId, t.diggerId] }), index("lead_alerts_digger_idx").on(t.diggerId)],
);

/** One row per daily digest sent: a digger gets one a day (in the digest's time zone). */
export const leadAlertDigests = pgTable(
  "lead_alert_digests",
  {
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    emailId: uuid("email_id").references(() => emails.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.diggerId, t.day] })],
);

// ---------------------------------------------------------------- e-mail

/**
 * Every e-mail the app sends, recorded before delivery; its `email.deliver` job (pg-boss,
 * server/jobs/queue.ts) is written in the same transaction and delivers it. 'kept' rows
 * belong to the outbox transport (local mode): stored, never sent, readable at /dev/mail.
 */
export const emails = pgTable(
  "emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    kind: text("kind", { enum: ["transactional", "promotional"] }).notNull(),
    /** The signed one-click unsubscribe address (List-Unsubscribe): promotional e-mail and lead alerts. */
    listUnsubscribeUrl: text("list_unsubscribe_url"),
    status: text("status", { enum: ["pending", "sent", "kept"] })
      .notNull()
      .default("pending"),
    /** Delivery attempts started so far. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** The calendar part (an invitation's .ics, text/calendar) and its METHOD (issue 50, migration 0055). */
    calendarMethod: text("calendar_method", { enum: ["REQUEST", "CANCEL"] }),
    calendar: text("calendar"),
  },
  (t) => [
    check("emails_kind_check", sql`${t.kind} in ('transactional', 'promotional')`),
    check("emails_status_check", sql`${t.status} in ('pending', 'sent', 'kept')`),
    check("emails_attempts_check", sql`${t.attempts} >= 0`),
    check("emails_sent_check", sql`(${t.status} = 'sent') = (${t.sentAt} is not null)`),
    check("emails_calendar_check", sql`(${t.calendar} is null) = (${t.calendarMethod} is null) and (${t.calendarMethod} is null or ${t.calendarMethod} in ('REQUEST', 'CANCEL'))`),
    index("emails_user_newest_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    // /dev/mail: newest first.
    index("emails_newest_idx").on(t.createdAt.desc().nullsFirst()),
  ],
);

/**
 * The bell (server/notifications/): what happened to a user, newest first, written through
 * `notify()` in the transaction of the event itself, so an event never lacks its entry (nor
 * its e-mail). `kind` names the event for code and tests; `text` is what the bell shows and
 * `link` where the action is (a path on this site). Unread while `read_at` is null.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    text: text("text").notNull(),
    link: text("link").notNull(),
    createdAt: createdAt(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    check("notifications_link_check", sql`${t.link} like '/%' and ${t.link} not like '//%'`),
    check("notifications_text_check", sql`length(${t.text}) between 1 and 500`),
    // The bell's list: a user's newest first, a page at a time.
    index("notifications_user_newest_idx").on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The unread count: only unread rows are indexed.
    index("notifications_user_unread_idx").on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/**
 * When each notice last went, per recipient, kind and subject (the gig, the issue, the
 * review...): `notify()` sends a notice only when its row is new or older than 24 hours, and
 * takes the row in the event's transaction, so repeating an event (hire, unhire, hire) cannot
 * flood the recipient (decision 0034).
 */
export const noticeSends = pgTable(
  "notice_sends",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    subjectId: text("subject_id").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.subjectId] })],
);

/**
 * Money returned to a digger: for an approved lead issue (at most one per issue), or in full
 * for a duplicate payment of a lead already bought or a payment for a lead no longer
 * available. Written as 'pending' in the transaction that decides it, then sent to the
 * payment provider with the refund's id as idempotency key, so a retry can never refund twice.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    leadPurchaseId: uuid("lead_purchase_id")
      .notNull()
      .references(() => leadPurchases.id, { onDelete: "restrict" }),
    leadIssueId: uuid("lead_issue_id").references(() => leadIssues.id, { onDelete: "restrict" }),
    reason: text("reason", { enum: ["issue_approved", "duplicate_payment", "lead_unavailable", "reply_guarantee", "gig_removed"] }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: ["pending", "succeeded"] })
      .notNull()
      .default("pending"),
    providerRefundId: text("provider_refund_id"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refunds_issue_key").on(t.leadIssueId),
    // At most one refund by the reply guarantee per purchase (issue 48).
    uniqueIndex("refunds_reply_guarantee_key").on(t.leadPurchaseId).where(sql`${t.reason} = 'reply_guarantee'`),
    index("refunds_purchase_idx").on(t.leadPurchaseId),
    index("refunds_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    check("refunds_amount_check", sql`${t.amountCents} > 0`),
    check(
      "refunds_reason_check",
      sql`(${t.reason} = 'issue_approved' and ${t.leadIssueId} is not null) or (${t.reason} in ('duplicate_payment', 'lead_unavailable', 'reply_guarantee', 'gig_removed') and ${t.leadIssueId} is null)`,
    ),
    check("refunds_status_check", sql`${t.status} in ('pending', 'succeeded')`),
    check("refunds_completed_check", sql`(${t.status} = 'succeeded') = (${t.completedAt} is not null)`),
  ],
);

// ---------------------------------------------------------------- the operator console

/**
 * The audit trail (docs/decisions/0026-operator-console.md): every operator action, who
 * (`operator_id`), what (`action`), on which record (`subject_type`, `subject_id`), about whom
 * (`subject_user_id`, for the user's page and their data export), why and when. Append-only:
 * triggers refuse every UPDATE, DELETE and TRUNCATE (migration 0021). No foreign keys, so that
 * deleting or purging an account never has to change a row of it.
 */
export const operatorActions = pgTable(
  "operator_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorId: text("operator_id").notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type", { enum: ["user", "gig", "review", "credential", "profile", "refund", "issue", "message"] }).notNull(),
    subjectId: text("subject_id").notNull(),
    subjectUserId: text("subject_user_id"),
    reason: text("reason"),
    /** What else the action set (an expiry date, say), for the log. */
    details: jsonb("details").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    /** The order rows were written in: the tie-breaker of two with the same `created_at` (migration 0028). */
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    check("operator_actions_subject_type_check", sql`${t.subjectType} in ('user', 'gig', 'review', 'credential', 'profile', 'refund', 'issue', 'message')`),
    check("operator_actions_action_check", sql`${t.action} ~ '^[a-z_]+\\.[a-z_]+$'`),
    check("operator_actions_reason_length", sql`${t.reason} is null or char_length(${t.reason}) between 1 and 1000`),
    // The Audit log page: newest first, a page at a time; and its filters.
    index("operator_actions_newest_idx").on(t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
    index("operator_actions_subject_user_idx").on(t.subjectUserId, t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
    index("operator_actions_operator_idx").on(t.operatorId, t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
    index("operator_actions_action_idx").on(t.action, t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
  ],
);

/**
 * Proof of a credential (issue 22): a digger uploads a policy or licence document for Insured,
 * Bonded or Licensed; an operator approves it (until a date) or rejects it (with a reason the
 * digger sees). The file is in private storage (`document_key` under private/credentials/),
 * served only to the digger and operators. An approved proof shows as verified on the profile
 * until `verified_until`; the daily job then marks it lapsed (docs/decisions/0028).
 */
export const credentialDocuments = pgTable(
  "credential_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "cascade" }),
    credential: text("credential", { enum: ["insured", "bonded", "licensed"] }).notNull(),
    /** The policy or licence number, as the digger typed it. */
    number: text("number").notNull(),
    /** The expiry date the digger stated. */
    statedExpiry: date("stated_expiry", { mode: "string" }).notNull(),
    documentKey: text("document_key").notNull(),
    /** The file's name as uploaded (cleaned), for the download. */
    documentName: text("document_name").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected", "lapsed", "replaced"] }).notNull().default("pending"),
    /** The expiry an operator approved; the proof lapses the day after. */
    verifiedUntil: date("verified_until", { mode: "string" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    rejectionReason: text("rejection_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    check("credential_documents_credential_check", sql`${t.credential} in ('insured', 'bonded', 'licensed')`),
    check("credential_documents_status_check", sql`${t.status} in ('pending', 'approved', 'rejected', 'lapsed', 'replaced')`),
    check("credential_documents_number_length", sql`char_length(btrim(${t.number})) between 1 and 100`),
    check("credential_documents_name_length", sql`char_length(${t.documentName}) between 1 and 200`),
    check("credential_documents_key_private", sql`${t.documentKey} like 'private/credentials/%'`),
    // Pending: undecided. Approved, lapsed, replaced: decided with an expiry. Rejected: decided with a reason.
    check(
      "credential_documents_decision_check",
      sql`(${t.status} = 'pending' and ${t.decidedAt} is null and ${t.verifiedUntil} is null and ${t.rejectionReason} is null)
        or (${t.status} in ('approved', 'lapsed', 'replaced') and ${t.decidedAt} is not null and ${t.verifiedUntil} is not null and ${t.rejectionReason} is null)
        or (${t.status} = 'rejected' and ${t.decidedAt} is not null and ${t.verifiedUntil} is null and char_length(btrim(${t.rejectionReason})) between 1 and 1000)`,
    ),
    uniqueIndex("credential_documents_key").on(t.documentKey),
    // One proof waiting and one approved per credential and profile.
    uniqueIndex("credential_documents_one_pending").on(t.diggerId, t.credential).where(sql`${t.status} = 'pending'`),
    uniqueIndex("credential_documents_one_approved").on(t.diggerId, t.credential).where(sql`${t.status} = 'approved'`),
    // The verification queue, oldest first; the lapse job's scan; a profile's own list.
    index("credential_documents_queue_idx").on(t.createdAt, t.id).where(sql`${t.status} = 'pending'`),
    index("credential_documents_lapse_idx").on(t.verifiedUntil).where(sql`${t.status} = 'approved'`),
    index("credential_documents_digger_idx").on(t.diggerId, t.createdAt.desc().nullsFirst()),
  ],
);

// ---------------------------------------------------------------- conversations (issue 32)

/**
 * One thread per completed purchase (server/conversations/, docs/decisions/0038-conversations.md):
 * between the digger who bought the lead (`digger_user_id`) and the gig's client. Made by a
 * trigger in the transaction that completes the purchase (migration 0029). `last_message_seq`
 * is its newest message's `seq`; each party's read mark is the `seq` they have seen (and when),
 * so a thread is unread for a party while `last_message_seq` is past their mark.
 */
export const threads = pgTable(
  "threads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    purchaseId: uuid("purchase_id")
      .notNull()
      .references(() => leadPurchases.id, { onDelete: "restrict" }),
    diggerUserId: text("digger_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
    lastMessageSeq: bigint("last_message_seq", { mode: "number" }).notNull().default(0),
    diggerReadSeq: bigint("digger_read_seq", { mode: "number" }).notNull().default(0),
    clientReadSeq: bigint("client_read_seq", { mode: "number" }).notNull().default(0),
    diggerReadAt: timestamp("digger_read_at", { withTimezone: true }),
    clientReadAt: timestamp("client_read_at", { withTimezone: true }),
    /**
     * What the thread shows (issue 48, migration 0052), kept by triggers on messages and quotes:
     * the digger's first answer (a message or a quote), the client's first message, how many each
     * side wrote (a quote counts for the digger). `client_opened_at`: the client first opened it
     * with something of the digger's in it (set by the thread's page, for the client only).
     */
    diggerFirstAt: timestamp("digger_first_at", { withTimezone: true }),
    clientFirstReplyAt: timestamp("client_first_reply_at", { withTimezone: true }),
    clientOpenedAt: timestamp("client_opened_at", { withTimezone: true }),
    diggerMessages: integer("digger_messages").notNull().default(0),
    clientMessages: integer("client_messages").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("threads_purchase_key").on(t.purchaseId),
    // Each party's inbox: by latest activity, a page at a time.
    index("threads_digger_inbox_idx").on(t.diggerUserId, t.lastActivityAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("threads_client_inbox_idx").on(t.clientId, t.lastActivityAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The top bar's unread count: only each party's unread threads are indexed.
    index("threads_digger_unread_idx").on(t.diggerUserId).where(sql`${t.lastMessageSeq} > ${t.diggerReadSeq}`),
    index("threads_client_unread_idx").on(t.clientId).where(sql`${t.lastMessageSeq} > ${t.clientReadSeq}`),
    check("threads_parties_check", sql`${t.diggerUserId} <> ${t.clientId}`),
    // What a visit's parties refer to (visits_thread_parties_fk, migration 0055).
    uniqueIndex("threads_parties_key").on(t.id, t.diggerUserId, t.clientId),
  ],
);

/**
 * A message of a thread, plain text of 1 to 5,000 characters. `seq` is the order messages were
 * written in (PGlite's clock may give two quick ones the same `created_at`). An operator may hide
 * it after a report (`hidden_at`, `hidden_by`); purging its sender's account blanks its text
 * (`deleted_at`, body '').
 */
export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenBy: text("hidden_by"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** A reply by e-mail's Message-ID (server/conversations/inbound/): the same e-mail posts once per thread. */
    emailMessageId: text("email_message_id"),
    /** When the recipient was told of it (pushed to, its notice scheduled): the `messages.tell` job's claim, after the send (migration 0058). */
    toldAt: timestamp("told_at", { withTimezone: true }),
  },
  (t) => [
    index("messages_thread_seq_idx").on(t.threadId, t.seq.desc().nullsFirst()),
    // The thread's page: its messages and quotes in one order, by (created_at, seq) (migration 0045).
    index("messages_thread_time_idx").on(t.threadId, t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
    uniqueIndex("messages_email_message_key").on(t.threadId, t.emailMessageId).where(sql`${t.emailMessageId} is not null`),
    index("messages_sender_idx").on(t.senderId),
    // The `messages.tell-sweep` job's: the messages nobody has been told of yet, a handful at any time (migration 0059).
    index("messages_untold_idx").on(t.createdAt, t.id).where(sql`${t.toldAt} is null`),
    check(
      "messages_body_check",
      sql`(${t.deletedAt} is null and char_length(btrim(${t.body})) between 1 and 5000) or (${t.deletedAt} is not null and ${t.body} = '')`,
    ),
    check("messages_hidden_check", sql`(${t.hiddenAt} is null) = (${t.hiddenBy} is null)`),
  ],
);

/**
 * A message's attachment (migration 0037, docs/decisions/0047-message-attachments.md): up to 5
 * per message, each a JPEG, PNG, WebP or PDF of at most 10 MB, its type read from its bytes, its
 * bytes in private storage (`storage_key`, never a public address). Served to the thread's
 * parties and, for a reported message, to operators (server/conversations/attachments.ts).
 */
export const messageAttachments = pgTable(
  "message_attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    storageKey: text("storage_key").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type", { enum: ["image/jpeg", "image/png", "image/webp", "application/pdf"] }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("message_attachments_message_position_key").on(t.messageId, t.position),
    uniqueIndex("message_attachments_storage_key_key").on(t.storageKey),
    check("message_attachments_position_check", sql`${t.position} between 0 and 4`),
    check("message_attachments_type_check", sql`${t.contentType} in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`),
    check("message_attachments_size_check", sql`${t.sizeBytes} between 1 and 10485760`),
    check("message_attachments_name_check", sql`char_length(${t.fileName}) between 1 and 200`),
    check("message_attachments_key_check", sql`${t.storageKey} like 'private/%'`),
  ],
);

/** `blocker_id` blocked `blocked_id`: no message goes either way in any thread of theirs until Unblock. */
export const blocks = pgTable(
  "blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index("blocks_blocked_idx").on(t.blockedId),
    check("blocks_not_self_check", sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/** A party's report of a message, once per message and reporter, until an operator hides or keeps it. */
export const messageReports = pgTable(
  "message_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolution: text("resolution", { enum: ["hidden", "kept"] }),
  },
  (t) => [
    uniqueIndex("message_reports_message_reporter_key").on(t.messageId, t.reporterId),
    index("message_reports_open_idx").on(t.createdAt, t.id).where(sql`${t.resolvedAt} is null`),
    check("message_reports_reason_length", sql`char_length(btrim(${t.reason})) between 10 and 500`),
    check("message_reports_resolution_check", sql`(${t.resolvedAt} is null) = (${t.resolution} is null) and (${t.resolution} is null or ${t.resolution} in ('hidden', 'kept'))`),
  ],
);

/**
 * Attempt counts of the rate limits (server/security/rate-limiter.ts), shared by every server
 * process on PostgreSQL. rate-limiter-flexible's layout, in its column order (it inserts
 * without naming columns): `key` is the limit's name and the counted key, `points` the
 * attempts, `expire` when the window ends (epoch ms). Expired rows are deleted by the library.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/**
 * A device (browser) a user turned push notifications on for (issue 34; migration 0030): its
 * push service endpoint and keys, owned by the session that made it, deleted with that session,
 * with the account, and when the push service answers 404 or 410. At most 10 per user (a
 * trigger; server/push/devices.ts).
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** "Chrome on Android": the browser and system, from the user agent when it was turned on. */
    device: text("device").notNull(),
    createdAt: createdAt(),
    /** When a push last reached its push service. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("push_subscriptions_user_idx").on(t.userId, t.createdAt)],
);

/**
 * One push to one device, waiting to reach its push service (decision 0052): made with its
 * `push.send` job in the event's transaction, deleted once the push service took it (or refused
 * it for good), and with its device. A delivery claims it for a minute (`sending_until`), so a
 * re-run of its job, even at once, sends nothing twice. One a day old is worth nothing (its TTL):
 * the hourly `push.purge` deletes it with the text it carries.
 */
export const pushes = pgTable(
  "pushes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    link: text("link").notNull(),
    urgency: text("urgency", { enum: ["high", "normal"] }).notNull(),
    /** Tries so far (each delivery that claimed it counts one). */
    attempts: integer("attempts").notNull().default(0),
    /** A delivery holds it until then; null: not being sent. */
    sendingUntil: timestamp("sending_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check("pushes_urgency_check", sql`${t.urgency} in ('high', 'normal')`),
    index("pushes_subscription_idx").on(t.subscriptionId),
    index("pushes_created_idx").on(t.createdAt),
  ],
);

/**
 * A thread's notifications to one of its parties (issue 32, decision 0038 "Notifications"):
 * whether a `messages.notify` job is pending for them (at most one is), and when the last
 * e-mail about the thread went to them (at most one per 30 minutes).
 */
export const messageNotices = pgTable(
  "message_notices",
  {
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pending: boolean("pending").notNull().default(false),
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ name: "message_notices_pk", columns: [t.threadId, t.userId] }), index("message_notices_user_idx").on(t.userId)],
);

/**
 * A digger's quote in a thread (issue 33, migration 0034, docs/decisions/0043-quotes.md): one
 * of three shapes in integer cents (fixed `amount_cents`; hourly `rate_cents` × `hours`;
 * estimate `low_cents` to `high_cents`), what it includes, an optional start date, valid until
 * the end of `valid_until` in the server's time zone (`expires_at`). A revision is a new row
 * naming the one it `replaces`. One OPEN quote per gig and digger, one ACCEPTED per gig.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    gigId: uuid("gig_id")
      .notNull()
      .references(() => gigs.id, { onDelete: "restrict" }),
    diggerId: uuid("digger_id")
      .notNull()
      .references(() => diggerProfiles.id, { onDelete: "restrict" }),
    replacesId: uuid("replaces_id").references((): AnyPgColumn => quotes.id, { onDelete: "set null" }),
    type: text("type", { enum: ["fixed", "hourly", "estimate"] }).notNull(),
    amountCents: integer("amount_cents"),
    rateCents: integer("rate_cents"),
    hours: numeric("hours", { precision: 6, scale: 1 }),
    lowCents: integer("low_cents"),
    highCents: integer("high_cents"),
    included: text("included").notNull(),
    startDate: date("start_date", { mode: "string" }),
    validUntil: date("valid_until", { mode: "string" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: ["open", "withdrawn", "replaced", "accepted", "declined", "not_chosen"] })
      .notNull()
      .default("open"),
    declineReason: text("decline_reason"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
    /** Drawn from the messages' sequence: a thread's messages and quote cards sort by (created_at, seq) together (migration 0045). */
    seq: bigint("seq", { mode: "number" }).notNull().default(sql`nextval('messages_seq_seq'::regclass)`),
  },
  (t) => [
    index("quotes_thread_idx").on(t.threadId, t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
    index("quotes_gig_idx").on(t.gigId),
    index("quotes_digger_idx").on(t.diggerId),
    uniqueIndex("quotes_one_open_key").on(t.gigId, t.diggerId).where(sql`${t.status} = 'open'`),
    uniqueIndex("quotes_one_accepted_key").on(t.gigId).where(sql`${t.status} = 'accepted'`),
    check("quotes_status_check", sql`${t.status} in ('open', 'withdrawn', 'replaced', 'accepted', 'declined', 'not_chosen')`),
    check("quotes_included_check", sql`char_length(btrim(${t.included})) between 1 and 2000`),
  ],
);

/** A fixed price's line items, in order (positions 0 to 19: at most 20). */
export const quoteLineItems = pgTable(
  "quote_line_items",
  {
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    description: text("description").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.quoteId, t.position] }), check("quote_line_items_position_check", sql`${t.position} between 0 and 19`)],
);

/**
 * How to reach me (issue 34; core/reach.ts): a user's E-mail and Push choice for one group of
 * events. No row: both on. Read by the event path (server/events/emit.ts) for each notice.
 */
export const reachPreferences = pgTable(
  "reach_preferences",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    group: text("group").notNull(),
    email: boolean("email").notNull().default(true),
    push: boolean("push").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.group] }),
    check("reach_preferences_group_check", sql`${t.group} in ('messages', 'quotes', 'visits', 'lead-alerts', 'purchases', 'account')`),
  ],
);

// ---------------------------------------------------------------- the client's record (issue 48)

/**
 * What a client's earlier leads show, per month of purchase (migration 0052, kept by triggers on
 * messages and quotes): the leads whose digger wrote, how many the client replied to, and the
 * replies' delays by the response-time bands. A gig's page reads at most 12 months of one client.
 */
export const clientReplyMonths = pgTable(
  "client_reply_months",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    leads: integer("leads").notNull().default(0),
    replied: integer("replied").notNull().default(0),
    withinHour: integer("within_hour").notNull().default(0),
    withinFewHours: integer("within_few_hours").notNull().default(0),
    withinDay: integer("within_day").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.month] })],
);

/** Per client, all time: leads whose digger wrote, gigs somebody bought, and of those the hired ones (migration 0052). */
export const clientRecords = pgTable("client_records", {
  clientId: text("client_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  leads: integer("leads").notNull().default(0),
  gigsBought: integer("gigs_bought").notNull().default(0),
  gigsHired: integer("gigs_hired").notNull().default(0),
  /**
   * Issue 51: the client's published reviews from diggers (shown, not withdrawn), their average,
   * and per question the yes and no answers; kept by triggers on client_reviews and refunds.
   */
  reviewCount: integer("review_count").notNull().default(0),
  reviewAverage: numeric("review_average", { precision: 3, scale: 2, mode: "number" }).notNull().default(0),
  describedYes: integer("described_yes").notNull().default(0),
  describedNo: integer("described_no").notNull().default(0),
  reachableYes: integer("reachable_yes").notNull().default(0),
  reachableNo: integer("reachable_no").notNull().default(0),
  paidYes: integer("paid_yes").notNull().default(0),
  paidNo: integer("paid_no").notNull().default(0),
});

// ---------------------------------------------------------------- verified phones (issue 49)

/** E.164: '+', a country code, up to 15 digits in all. */
const e164 = (column: AnyPgColumn) => sql`${column} ~ '^\\+[1-9][0-9]{6,14}$'`;

/**
 * A number an account proved it receives texts at (a right code, server/phones/), and when.
 * Several accounts may verify one number (people share phones). Gigs read it through their
 * `phone_verified_at`, which triggers keep (migration 0054).
 */
export const phoneVerifications = pgTable(
  "phone_verifications",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.phone] }), check("phone_verifications_phone_check", e164(t.phone))],
);

/**
 * The one code an account is waiting on: a new code replaces it, a right one deletes it. Only
 * its HMAC is kept (server/phones/), at most 5 tries, good for 10 minutes. It verifies the
 * account's number (/account) or a gig's (`gigId`, whose free-text number is then written in E.164).
 */
export const phoneCodes = pgTable(
  "phone_codes",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    codeHash: text("code_hash").notNull(),
    forAccount: boolean("for_account").notNull().default(false),
    gigId: uuid("gig_id").references(() => gigs.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    triesLeft: integer("tries_left").notNull().default(5),
    /** The provider's id of the text, for support only: never in logs, exports or pages. */
    providerMessageId: text("provider_message_id"),
  },
  (t) => [
    check("phone_codes_phone_check", e164(t.phone)),
    check("phone_codes_tries_check", sql`${t.triesLeft} between 0 and 5`),
  ],
);

/** Local mode's text messages (/dev/sms, like /dev/mail): what the app would have sent. Never written in production. */
export const smsOutbox = pgTable(
  "sms_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    toPhone: text("to_phone").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sms_outbox_newest_idx").on(t.createdAt.desc())],
);

// ---------------------------------------------------------------- site visits (issue 50)

/**
 * A digger's proposed times for a visit (migration 0055): one to three options written in the
 * digger's zone (`zone`), in the thread's one list by (created_at, seq) like quotes. `visitId`:
 * new times for that booked visit (Reschedule). One open proposal per thread.
 */
export const visitProposals = pgTable(
  "visit_proposals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    visitId: uuid("visit_id").references((): AnyPgColumn => visits.id, { onDelete: "cascade" }),
    note: text("note"),
    zone: text("zone").notNull(),
    status: text("status", { enum: ["open", "booked", "replaced", "other_times", "withdrawn"] })
      .notNull()
      .default("open"),
    bookedPosition: smallint("booked_position"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
    /** Drawn from the messages' sequence: the thread's list sorts by (created_at, seq) (migration 0045). */
    seq: bigint("seq", { mode: "number" }).notNull().default(sql`nextval('messages_seq_seq'::regclass)`),
  },
  (t) => [
    uniqueIndex("visit_proposals_one_open_key").on(t.threadId).where(sql`${t.status} = 'open'`),
    index("visit_proposals_thread_idx").on(t.threadId, t.createdAt.desc().nullsFirst(), t.seq.desc().nullsFirst()),
    check("visit_proposals_status_check", sql`${t.status} in ('open', 'booked', 'replaced', 'other_times', 'withdrawn')`),
    check("visit_proposals_note_check", sql`${t.note} is null or char_length(${t.note}) between 1 and 500`),
    check("visit_proposals_booked_check", sql`(${t.status} = 'booked') = (${t.bookedPosition} is not null)`),
  ],
);

/** A proposal's options in the order written: a start and an arrival window in minutes (0: exact). */
export const visitOptions = pgTable(
  "visit_options",
  {
    proposalId: uuid("proposal_id")
      .notNull()
      .references(() => visitProposals.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    windowMinutes: smallint("window_minutes").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.proposalId, t.position] }),
    check("visit_options_position_check", sql`${t.position} between 0 and 2`),
    check("visit_options_window_check", sql`${t.windowMinutes} in (0, 60, 120, 240)`),
  ],
);

/**
 * A booked visit (migration 0055): its calendar UID is its id and `sequence` counts its changes;
 * `proposalId` is the proposal booked last. Cancelled by a party (with a reason; late within 24
 * hours of the window) or by the system (a suspension, a block); marked once by each side after
 * the window. Its reminders (`visit_reminders`) and both parties' `visit_records` are kept by
 * triggers.
 */
export const visits = pgTable(
  "visits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    diggerUserId: text("digger_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    proposalId: uuid("proposal_id")
      .notNull()
      .references((): AnyPgColumn => visitProposals.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    windowMinutes: smallint("window_minutes").notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    sequence: integer("sequence").notNull().default(0),
    status: text("status", { enum: ["booked", "cancelled"] })
      .notNull()
      .default("booked"),
    cancelledBy: text("cancelled_by", { enum: ["digger", "client", "system"] }),
    cancelReason: text("cancel_reason"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    lateCancellation: boolean("late_cancellation").notNull().default(false),
    clientConfirmedAt: timestamp("client_confirmed_at", { withTimezone: true }),
    changeRequestedAt: timestamp("change_requested_at", { withTimezone: true }),
    diggerOutcome: text("digger_outcome", { enum: ["visited", "client_absent"] }),
    diggerMarkedAt: timestamp("digger_marked_at", { withTimezone: true }),
    clientOutcome: text("client_outcome", { enum: ["digger_absent"] }),
    clientMarkedAt: timestamp("client_marked_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("visits_proposal_key").on(t.proposalId),
    // Its parties are its thread's.
    foreignKey({ name: "visits_thread_parties_fk", columns: [t.threadId, t.diggerUserId, t.clientId], foreignColumns: [threads.id, threads.diggerUserId, threads.clientId] })
      .onDelete("cascade")
      .onUpdate("cascade"),
    index("visits_thread_idx").on(t.threadId, t.startsAt),
    index("visits_digger_idx").on(t.diggerUserId, t.startsAt, t.id),
    index("visits_client_idx").on(t.clientId, t.startsAt, t.id),
    check("visits_status_check", sql`${t.status} in ('booked', 'cancelled')`),
    check("visits_window_check", sql`${t.windowMinutes} in (0, 60, 120, 240) and ${t.endsAt} >= ${t.startsAt}`),
    check("visits_cancel_check", sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null and ${t.cancelledBy} is not null)`),
    check("visits_cancelled_by_check", sql`${t.cancelledBy} is null or ${t.cancelledBy} in ('digger', 'client', 'system')`),
    check("visits_cancel_reason_check", sql`${t.cancelReason} is null or char_length(${t.cancelReason}) <= 200`),
    check("visits_late_check", sql`not ${t.lateCancellation} or ${t.cancelledBy} in ('digger', 'client')`),
    check("visits_digger_outcome_check", sql`${t.diggerOutcome} is null or (${t.diggerOutcome} in ('visited', 'client_absent') and ${t.diggerMarkedAt} is not null and ${t.status} = 'booked')`),
    check("visits_client_outcome_check", sql`${t.clientOutcome} is null or (${t.clientOutcome} = 'digger_absent' and ${t.clientMarkedAt} is not null and ${t.status} = 'booked')`),
  ],
);

/**
 * A booked visit's two reminders, 'day' (24 hours before the window) and 'hours' (2 hours), kept
 * by a trigger on `visits` (migration 0055): written at booking, moved with the visit, deleted
 * when it is cancelled. A reminder job sends one only while it is still due at the time it was
 * started for, marking it sent in the same statement.
 */
export const visitReminders = pgTable(
  "visit_reminders",
  {
    visitId: uuid("visit_id")
      .notNull()
      .references(() => visits.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["day", "hours"] }).notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.visitId, t.kind] }),
    index("visit_reminders_due_idx").on(t.dueAt).where(sql`${t.sentAt} is null`),
    check("visit_reminders_kind_check", sql`${t.kind} in ('day', 'hours')`),
  ],
);

/** Each person's kept and counted visits as a digger and as a client, derived by a trigger on `visits` (migration 0055). */
export const visitRecords = pgTable(
  "visit_records",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["digger", "client"] }).notNull(),
    kept: integer("kept").notNull().default(0),
    counted: integer("counted").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check("visit_records_role_check", sql`${t.role} in ('digger', 'client')`),
    check("visit_records_counts_check", sql`${t.kept} between 0 and ${t.counted}`),
  ],
);
