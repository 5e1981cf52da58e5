-- CalDAV items (issue 38). A task's subtasks are their own VTODOs (RELATED-TO their task), so
-- the change log records them too (type SUBTASK; the web app's pulls do not ask for it), and they
-- keep an app's UID, name and properties like items do. The change log remembers whether a task row is a TASK or an EVENT, and
-- the name a calendar app gave it, so a deletion reaches the right calendar's sync-collection
-- under the name the app knows; an item keeps the UID and the resource
-- name a calendar app gave it (NULL: Hearth's own, `<id>` and `<id>.ics`) and the iCalendar
-- properties Hearth does not model, given back unchanged (apps keep their own state there).

ALTER TABLE sync_changes ADD COLUMN kind text CHECK (kind IN ('TASK', 'EVENT')),
                         ADD COLUMN calendar_name text;
UPDATE sync_changes c SET kind = t.kind FROM task_items t WHERE c.type = 'TASK' AND c.record_id = t.id::text;

ALTER TABLE task_items ADD COLUMN calendar_uid   text CHECK (length(calendar_uid) BETWEEN 1 AND 255),
                       ADD COLUMN calendar_name  text CHECK (length(calendar_name) BETWEEN 1 AND 255),
                       ADD COLUMN calendar_extra text CHECK (length(calendar_extra) <= 65536);

-- An item answers under one name and one UID in its calendar (a household's tasks or events).
CREATE UNIQUE INDEX task_items_calendar_name ON task_items (household_id, kind, (COALESCE(calendar_name, id::text || '.ics')));
CREATE UNIQUE INDEX task_items_calendar_uid ON task_items (household_id, kind, (COALESCE(calendar_uid, id::text)));

-- sync_log as in 0018, with a seventh and eighth argument: the columns holding the record's kind
-- and its calendar name (or '').
CREATE OR REPLACE FUNCTION sync_log() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    parent text := CASE WHEN TG_ARGV[3] = '' THEN 'NULL::uuid' ELSE format('r.%I', TG_ARGV[3]) END;
    person text := CASE WHEN TG_ARGV[4] = '' THEN 'NULL::uuid' ELSE format('r.%I', TG_ARGV[4]) END;
    gone text := CASE WHEN TG_ARGV[5] = '' THEN 'false' ELSE format('r.%I IS NOT NULL', TG_ARGV[5]) END;
    kind text := CASE WHEN TG_NARGS < 7 OR TG_ARGV[6] = '' THEN 'NULL::text' ELSE format('r.%I', TG_ARGV[6]) END;
    calendar_name text := CASE WHEN TG_NARGS < 8 OR TG_ARGV[7] = '' THEN 'NULL::text' ELSE format('r.%I', TG_ARGV[7]) END;
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
    EXECUTE format('INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at, kind, calendar_name) '
                   'SELECT r.%I, %L, r.%I::text, %s, %s, %s, %s, pg_current_xact_id(), now(), %s, %s FROM %s WHERE r.%I IS NOT NULL '
                   'ON CONFLICT (household_id, type, record_id, person) DO UPDATE '
                   'SET version = EXCLUDED.version, deleted = EXCLUDED.deleted, xid = EXCLUDED.xid, '
                   'changed_at = EXCLUDED.changed_at, parent = EXCLUDED.parent, kind = EXCLUDED.kind, '
                   'calendar_name = EXCLUDED.calendar_name',
                   TG_ARGV[1], TG_ARGV[0], TG_ARGV[2], person, parent, version, gone, kind, calendar_name, source, TG_ARGV[1]);
    RETURN NULL;
END $$;

DROP TRIGGER sync_log_insert ON task_items;
DROP TRIGGER sync_log_update ON task_items;
DROP TRIGGER sync_log_delete ON task_items;
CREATE TRIGGER sync_log_insert AFTER INSERT ON task_items REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('TASK', 'household_id', 'id', '', '', '', 'kind', 'calendar_name');
CREATE TRIGGER sync_log_update AFTER UPDATE ON task_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('TASK', 'household_id', 'id', '', '', '', 'kind', 'calendar_name');
CREATE TRIGGER sync_log_delete AFTER DELETE ON task_items REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('TASK', 'household_id', 'id', '', '', '', 'kind', 'calendar_name');

ALTER TABLE subtasks ADD COLUMN calendar_uid   text CHECK (length(calendar_uid) BETWEEN 1 AND 255),
                     ADD COLUMN calendar_name  text CHECK (length(calendar_name) BETWEEN 1 AND 255),
                     ADD COLUMN calendar_extra text CHECK (length(calendar_extra) <= 65536);

ALTER TABLE sync_changes DROP CONSTRAINT sync_changes_type_check;
ALTER TABLE sync_changes ADD CONSTRAINT sync_changes_type_check CHECK (type IN ('HOUSEHOLD', 'MEMBER', 'LABEL', 'TASK', 'STORE', 'PRODUCT',
                                                                                'STORE_EVENT', 'NOTIFICATION', 'SUBTASK'));

-- AFTER each statement on subtasks: each subtask's change (a deletion as a tombstone) under its
-- task's household, found through the task's own log row (which a cascade from the task leaves).
CREATE FUNCTION calendar_log_subtasks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at, kind, calendar_name)
    SELECT c.household_id, 'SUBTASK', r.id::text, NULL, r.task_id, nextval('sync_versions'), TG_OP = 'DELETE', pg_current_xact_id(), now(),
           'TASK', r.calendar_name
    FROM touched_rows r JOIN sync_changes c ON c.type = 'TASK' AND c.record_id = r.task_id::text AND c.person IS NULL
    ON CONFLICT (household_id, type, record_id, person) DO UPDATE
    SET version = EXCLUDED.version, deleted = EXCLUDED.deleted, xid = EXCLUDED.xid, changed_at = EXCLUDED.changed_at,
        parent = EXCLUDED.parent, calendar_name = EXCLUDED.calendar_name;
    RETURN NULL;
END $$;

CREATE TRIGGER calendar_log_subtasks_on_insert AFTER INSERT ON subtasks REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION calendar_log_subtasks();
CREATE TRIGGER calendar_log_subtasks_on_update AFTER UPDATE ON subtasks REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION calendar_log_subtasks();
CREATE TRIGGER calendar_log_subtasks_on_delete AFTER DELETE ON subtasks REFERENCING OLD TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION calendar_log_subtasks();

-- The subtasks there are.
INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at, kind)
SELECT t.household_id, 'SUBTASK', s.id::text, NULL, s.task_id, nextval('sync_versions'), false, pg_current_xact_id(), now(), 'TASK'
FROM subtasks s JOIN task_items t ON t.id = s.task_id;

