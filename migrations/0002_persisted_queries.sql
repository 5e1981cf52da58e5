-- Automatic persisted queries: GraphQL documents by the SHA-256 of their text, registered by
-- clients and shared by every instance (the text is what was sent; the hash was checked).
CREATE TABLE persisted_queries (
    sha256      text        PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    query       text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
