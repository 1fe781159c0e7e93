-- Trigram indexes back the case-insensitive substring searches (browse gigs and talent).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
