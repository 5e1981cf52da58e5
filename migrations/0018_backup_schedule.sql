-- Scheduled backups (issue 37): every attempt any instance made, so each instance's health report
-- and metrics tell the same story, and notices to the instance's administrators (a failed or
-- overdue backup), which belong to no household.

CREATE TABLE backup_runs (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The instance that made it (its --instance-id or host name).
    instance     text        NOT NULL,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz NOT NULL,
    -- On success: the file's name in the backup directory and its size.
    file         text,
    bytes        bigint,
    -- On failure: what went wrong, in words an operator can act on.
    error        text,
    CHECK ((error IS NULL) = (file IS NOT NULL))
);

CREATE INDEX backup_runs_finished ON backup_runs (finished_at DESC);

-- An instance notice (kind INSTANCE) belongs to no household; every other notification to one.
ALTER TABLE notifications ALTER COLUMN household_id DROP NOT NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('STORE_CHANGES', 'REMINDER', 'TASK_ASSIGNED', 'MEMBERSHIP', 'INSTANCE')),
    ADD CONSTRAINT notifications_household_check CHECK ((household_id IS NULL) = (kind = 'INSTANCE'));

-- The sync log takes household records only: an instance notice reaches its reader through
-- `notifications(kinds: [INSTANCE])` and their channels, not through a household's pulls.
CREATE OR REPLACE FUNCTION sync_log() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    parent text := CASE WHEN TG_ARGV[3] = '' THEN 'NULL::uuid' ELSE format('r.%I', TG_ARGV[3]) END;
    person text := CASE WHEN TG_ARGV[4] = '' THEN 'NULL::uuid' ELSE format('r.%I', TG_ARGV[4]) END;
    gone text := CASE WHEN TG_ARGV[5] = '' THEN 'false' ELSE format('r.%I IS NOT NULL', TG_ARGV[5]) END;
    source text := 'new_rows r';
    version text := 'r.version';
BEGIN
    IF TG_OP = 'DELETE' THEN
        source := 'old_rows r';
        version := 'nextval(''sync_versions'')';
        gone := 'true';
    ELSIF TG_OP = 'UPDATE' THEN
        source := format('new_rows r JOIN old_rows o ON o.%1$I = r.%1$I AND o.%2$I = r.%2$I AND o.version <> r.version',
                         TG_ARGV[1], TG_ARGV[2]);
    END IF;
    EXECUTE format('INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at) '
                   'SELECT r.%I, %L, r.%I::text, %s, %s, %s, %s, pg_current_xact_id(), now() FROM %s WHERE r.%I IS NOT NULL '
                   'ON CONFLICT (household_id, type, record_id, person) DO UPDATE '
                   'SET version = EXCLUDED.version, deleted = EXCLUDED.deleted, xid = EXCLUDED.xid, '
                   'changed_at = EXCLUDED.changed_at, parent = EXCLUDED.parent',
                   TG_ARGV[1], TG_ARGV[0], TG_ARGV[2], person, parent, version, gone, source, TG_ARGV[1]);
    RETURN NULL;
END $$;
