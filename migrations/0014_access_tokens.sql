-- Personal access tokens: programs that act for a person (assistants over MCP, scripts, home
-- automation), limited by their scopes and by their owner's roles (HearthCore/Users).
CREATE TABLE access_tokens (
    id             uuid        PRIMARY KEY,
    user_id        uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- SHA-256 of the token; the token itself is shown once and never stored.
    token_hash     bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- READ (queries) and WRITE (tasks, events, labels, read marks, syncs); never more.
    scopes         text[]      NOT NULL CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['READ', 'WRITE']),
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    last_used_at   timestamptz
);

CREATE INDEX access_tokens_user ON access_tokens (user_id, created_at);
