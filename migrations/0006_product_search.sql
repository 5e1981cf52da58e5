-- Product search: `store.products(search:)` matches a substring of the lower-cased search key.
-- A trigram GIN index over (store, search key) answers `LIKE '%wool%'` and its count from the
-- index instead of reading every product of the store. Both extensions ship with PostgreSQL's
-- contrib modules and are trusted, so a database owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX products_search ON products USING gin (store_id, search_key gin_trgm_ops) WHERE removed_at IS NULL;
