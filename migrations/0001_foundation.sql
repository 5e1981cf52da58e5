-- Hearth's first migration: settings of this installation, shared by every instance.
-- (schema_migrations itself is created by the migrator.)

CREATE TABLE hearth_settings (
    key         text        PRIMARY KEY CHECK (key <> ''),
    value       text        NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Every installation gets an id at its first migration; it identifies this database in
-- health reports and logs, and survives restarts.
INSERT INTO hearth_settings (key, value) VALUES ('installation_id', gen_random_uuid()::text);
