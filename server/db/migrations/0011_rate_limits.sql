-- The rate limits' counts, shared by every server process (docs/decisions/0014-proxies-and-shared-rate-limits.md).
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
