-- Private calendar feeds (issue 38): a secret URL a calendar app subscribes to (webcal), read-only,
-- with a person's tasks that have deadlines and their events in some of their households. The
-- URL's token is shown once; only its SHA-256 is kept.

CREATE TABLE calendar_feeds (
    id             uuid        PRIMARY KEY,
    user_id        uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash     bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- The households it shows (those the person still belongs to when it is read); NULL: all of theirs.
    household_ids  uuid[],
    kinds          text[]      NOT NULL CHECK (cardinality(kinds) > 0 AND kinds <@ ARRAY['TASK', 'EVENT']),
    created_at     timestamptz NOT NULL,
    last_fetched_at timestamptz
);

CREATE INDEX calendar_feeds_user ON calendar_feeds (user_id, created_at);
