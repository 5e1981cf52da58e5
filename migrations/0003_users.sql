-- People, their sign-in sessions and their preferences (the users service).

CREATE TABLE users (
    id             uuid        PRIMARY KEY,
    -- Trimmed and lower-cased by the service; unique across the installation.
    email          text        NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    display_name   text        NOT NULL CHECK (length(display_name) BETWEEN 1 AND 80),
    avatar_url     text        CHECK (avatar_url IS NULL OR length(avatar_url) <= 2048),
    password_hash  text        NOT NULL,
    is_admin       boolean     NOT NULL DEFAULT false,
    -- The person's preferences as the service writes them (every key known and validated).
    preferences    jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);

-- searchUsers: prefix match on the display name, case-insensitively.
CREATE INDEX users_display_name_prefix ON users (lower(display_name) text_pattern_ops);

CREATE TABLE user_sessions (
    id             uuid        PRIMARY KEY,
    user_id        uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- SHA-256 of the token; the token itself is shown once and never stored.
    token_hash     bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    device_name    text        NOT NULL CHECK (length(device_name) <= 200),
    created_at     timestamptz NOT NULL,
    last_used_at   timestamptz NOT NULL,
    -- Slides forward as the session is used.
    expires_at     timestamptz NOT NULL
);

CREATE INDEX user_sessions_user ON user_sessions (user_id);
CREATE INDEX user_sessions_expiry ON user_sessions (expires_at);

-- Failed sign-ins, counted per email and per client address over a sliding window; shared by
-- every instance so the limit holds however requests are spread.
CREATE TABLE sign_in_failures (
    scope          text        NOT NULL CHECK (scope IN ('email', 'address')),
    key            text        NOT NULL,
    failed_at      timestamptz NOT NULL
);

CREATE INDEX sign_in_failures_lookup ON sign_in_failures (scope, key, failed_at);
