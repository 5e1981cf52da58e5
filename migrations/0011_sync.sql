-- Local-first sync (HearthCore/Sync): every synced record carries a version, tasks, labels and
-- households keep the version at which each of their fields last changed, and every change is
-- logged — one row per record (per person, for per-person records) holding its newest version,
-- whether it is deleted, and the id of the transaction that wrote it, so pulls can be commit-safe.
-- Triggers do the stamping and logging, so no write path (the catalog sync's bulk writes, cascades
-- of a deletion) can change a synced record without its version and log following.

-- Versions are one increasing sequence across all records: a record's version grows with each change.
CREATE SEQUENCE sync_versions;

ALTER TABLE households       ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions'),
                             ADD COLUMN field_versions jsonb NOT NULL DEFAULT '{}';
ALTER TABLE household_members ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions');
ALTER TABLE labels           ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions'),
                             ADD COLUMN field_versions jsonb NOT NULL DEFAULT '{}';
ALTER TABLE task_items       ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions'),
                             ADD COLUMN field_versions jsonb NOT NULL DEFAULT '{}';
ALTER TABLE stores           ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions');
ALTER TABLE products         ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions');
ALTER TABLE store_events     ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions');
ALTER TABLE notifications    ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_versions');

-- The change log: each record's newest change. `person` is set for per-person records (a
-- notification, a store event's read state), which reach only that person's pulls. `parent` is
-- a product's or event's store, so a store's deletion can stand for theirs.
CREATE TABLE sync_changes (
    household_id   uuid        NOT NULL,
    type           text        NOT NULL CHECK (type IN ('HOUSEHOLD', 'MEMBER', 'LABEL', 'TASK', 'STORE', 'PRODUCT',
                                                        'STORE_EVENT', 'NOTIFICATION')),
    record_id      text        NOT NULL,
    person         uuid,
    parent         uuid,
    version        bigint      NOT NULL,
    deleted        boolean     NOT NULL,
    -- The writing transaction: a pull returns the changes visible in its snapshot and not in the previous one's.
    xid            xid8        NOT NULL,
    changed_at     timestamptz NOT NULL,
    UNIQUE NULLS NOT DISTINCT (household_id, type, record_id, person)
);

-- A pull's order and keyset: (transaction, type, id, person or '').
CREATE INDEX sync_changes_pull ON sync_changes (household_id, xid, type, record_id, (COALESCE(person::text, '')));
CREATE INDEX sync_changes_tombstones ON sync_changes (changed_at) WHERE deleted;
CREATE INDEX sync_changes_parent ON sync_changes (parent) WHERE parent IS NOT NULL;

-- Devices that push: a client id belongs to the person who first pushed with it, and
-- `last_mutation_id` is written in the same transaction as the mutation it counts.
CREATE TABLE sync_clients (
    id                 uuid        PRIMARY KEY,
    user_id            uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    last_mutation_id   bigint      NOT NULL DEFAULT 0,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL
);

CREATE INDEX sync_clients_user ON sync_clients (user_id);

-- Housekeeping one instance does per period (pruning tombstones): whoever claims the lease.
CREATE TABLE maintenance_leases (
    name           text        PRIMARY KEY,
    holder         text        NOT NULL,
    expires_at     timestamptz NOT NULL
);

-- BEFORE INSERT OR UPDATE: a new version for a row whose synced columns changed (the columns
-- named in the trigger's arguments are not synced: a change to them alone is none), and for a
-- table with field versions, the new version on each changed column. A version set explicitly
-- (a child row changed: see sync_touch_task) is kept.
CREATE FUNCTION sync_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_row jsonb;
    changed text[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.version := nextval('sync_versions');
        RETURN NEW;
    END IF;
    IF NEW.version IS DISTINCT FROM OLD.version THEN
        RETURN NEW;
    END IF;
    old_row := to_jsonb(OLD);
    SELECT array_agg(n.key) INTO changed FROM jsonb_each(to_jsonb(NEW)) AS n
    WHERE n.key <> ALL (TG_ARGV || ARRAY['version', 'field_versions']::text[]) AND n.value IS DISTINCT FROM old_row -> n.key;
    IF changed IS NULL THEN
        RETURN NEW;
    END IF;
    NEW.version := nextval('sync_versions');
    IF old_row ? 'field_versions' THEN
        NEW.field_versions := OLD.field_versions || (SELECT jsonb_object_agg(c, NEW.version) FROM unnest(changed) AS c);
    END IF;
    RETURN NEW;
END $$;

-- AFTER INSERT, UPDATE or DELETE, per statement (a bulk write is one statement into the log):
-- the rows' newest changes into the log — inserted rows, updated rows whose version moved, and
-- deleted rows as tombstones with a new version. The statement's rows are the transition tables
-- `new_rows` and `old_rows`. Arguments: the sync type, then the columns holding the household,
-- the record's id, the parent store (or ''), the person (or ''), and a column whose being set
-- means deleted (or '').
CREATE FUNCTION sync_log() RETURNS trigger LANGUAGE plpgsql AS $$
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
                   'SELECT r.%I, %L, r.%I::text, %s, %s, %s, %s, pg_current_xact_id(), now() FROM %s '
                   'ON CONFLICT (household_id, type, record_id, person) DO UPDATE '
                   'SET version = EXCLUDED.version, deleted = EXCLUDED.deleted, xid = EXCLUDED.xid, '
                   'changed_at = EXCLUDED.changed_at, parent = EXCLUDED.parent',
                   TG_ARGV[1], TG_ARGV[0], TG_ARGV[2], person, parent, version, gone, source);
    RETURN NULL;
END $$;

-- AFTER each statement on subtasks or task_labels: their tasks get one new version, recorded on
-- the task's `subtasks` or `labels` field (the trigger's argument).
CREATE FUNCTION sync_touch_task() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM touched_rows) THEN
        RETURN NULL;
    END IF;
    v := nextval('sync_versions');
    UPDATE task_items SET version = v, field_versions = field_versions || jsonb_build_object(TG_ARGV[0], v)
    WHERE id IN (SELECT task_id FROM touched_rows);
    RETURN NULL;
END $$;

-- AFTER INSERT on store_event_reads: the event changed for its reader.
CREATE FUNCTION sync_log_event_reads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at)
    SELECT e.household_id, 'STORE_EVENT', e.id::text, r.user_id, e.store_id, nextval('sync_versions'), false, pg_current_xact_id(), now()
    FROM touched_rows r JOIN store_events e ON e.id = r.event_id
    ON CONFLICT (household_id, type, record_id, person) DO UPDATE
    SET version = EXCLUDED.version, deleted = false, xid = EXCLUDED.xid, changed_at = EXCLUDED.changed_at;
    RETURN NULL;
END $$;

-- AFTER INSERT OR UPDATE on store_read_marks, per row: the events the mark newly covers changed for its reader.
CREATE FUNCTION sync_log_read_mark() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    since bigint := 0;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        since := OLD.read_up_to;
    END IF;
    INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at)
    SELECT e.household_id, 'STORE_EVENT', e.id::text, NEW.user_id, e.store_id, nextval('sync_versions'), false, pg_current_xact_id(), now()
    FROM store_events e WHERE e.store_id = NEW.store_id AND e.id > since AND e.id <= NEW.read_up_to
    ON CONFLICT (household_id, type, record_id, person) DO UPDATE
    SET version = EXCLUDED.version, deleted = false, xid = EXCLUDED.xid, changed_at = EXCLUDED.changed_at;
    RETURN NULL;
END $$;

CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON households FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER sync_log_insert AFTER INSERT ON households REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('HOUSEHOLD', 'id', 'id', '', '', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON households REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('HOUSEHOLD', 'id', 'id', '', '', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON households REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('HOUSEHOLD', 'id', 'id', '', '', '');

CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON household_members FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER sync_log_insert AFTER INSERT ON household_members REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('MEMBER', 'household_id', 'user_id', '', '', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON household_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('MEMBER', 'household_id', 'user_id', '', '', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON household_members REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('MEMBER', 'household_id', 'user_id', '', '', '');

CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON labels FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER sync_log_insert AFTER INSERT ON labels REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('LABEL', 'household_id', 'id', '', '', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON labels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('LABEL', 'household_id', 'id', '', '', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON labels REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('LABEL', 'household_id', 'id', '', '', '');

-- The reminder leases and the create digest are bookkeeping; `occurs_at` is generated from synced columns.
CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON task_items
    FOR EACH ROW EXECUTE FUNCTION sync_stamp('reminder_lease_owner', 'reminder_lease_expires_at', 'create_digest', 'occurs_at');
CREATE TRIGGER sync_log_insert AFTER INSERT ON task_items REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('TASK', 'household_id', 'id', '', '', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON task_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('TASK', 'household_id', 'id', '', '', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON task_items REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('TASK', 'household_id', 'id', '', '', '');

CREATE TRIGGER sync_touch_task_on_insert AFTER INSERT ON subtasks REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_touch_task('subtasks');
CREATE TRIGGER sync_touch_task_on_update AFTER UPDATE ON subtasks REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_touch_task('subtasks');
CREATE TRIGGER sync_touch_task_on_delete AFTER DELETE ON subtasks REFERENCING OLD TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_touch_task('subtasks');
CREATE TRIGGER sync_touch_task_on_insert AFTER INSERT ON task_labels REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_touch_task('labels');
CREATE TRIGGER sync_touch_task_on_delete AFTER DELETE ON task_labels REFERENCING OLD TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_touch_task('labels');

-- The sync leases are bookkeeping (a store being synced is not a change of the store).
CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON stores
    FOR EACH ROW EXECUTE FUNCTION sync_stamp('lease_owner', 'lease_expires_at', 'last_attempt_at');
CREATE TRIGGER sync_log_insert AFTER INSERT ON stores REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('STORE', 'household_id', 'id', '', '', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON stores REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('STORE', 'household_id', 'id', '', '', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON stores REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('STORE', 'household_id', 'id', '', '', '');

-- A product the feed no longer lists is deleted for sync (the product lists leave it out too).
CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON products FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER sync_log_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('PRODUCT', 'household_id', 'id', 'store_id', '', 'removed_at');
CREATE TRIGGER sync_log_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('PRODUCT', 'household_id', 'id', 'store_id', '', 'removed_at');
CREATE TRIGGER sync_log_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('PRODUCT', 'household_id', 'id', 'store_id', '', 'removed_at');

CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON store_events FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER sync_log_insert AFTER INSERT ON store_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('STORE_EVENT', 'household_id', 'id', 'store_id', '', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON store_events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('STORE_EVENT', 'household_id', 'id', 'store_id', '', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON store_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('STORE_EVENT', 'household_id', 'id', 'store_id', '', '');
CREATE TRIGGER sync_log_event_reads AFTER INSERT ON store_event_reads REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log_event_reads();
CREATE TRIGGER sync_log_read_mark AFTER INSERT OR UPDATE ON store_read_marks
    FOR EACH ROW EXECUTE FUNCTION sync_log_read_mark();

CREATE TRIGGER sync_stamp BEFORE INSERT OR UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER sync_log_insert AFTER INSERT ON notifications REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('NOTIFICATION', 'household_id', 'id', 'store_id', 'user_id', '');
CREATE TRIGGER sync_log_update AFTER UPDATE ON notifications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('NOTIFICATION', 'household_id', 'id', 'store_id', 'user_id', '');
CREATE TRIGGER sync_log_delete AFTER DELETE ON notifications REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_log('NOTIFICATION', 'household_id', 'id', 'store_id', 'user_id', '');

-- After each statement writing the log: a poke per household on the event bus's channel,
-- delivered when the transaction commits (PostgreSQL folds a transaction's identical
-- notifications into one). The zero origin is no instance's, so every instance hears it.
CREATE FUNCTION sync_poke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('hearth_bus', json_build_object('topic', 'sync', 'origin', '00000000-0000-0000-0000-000000000000',
                                                      'body', t.household_id)::text)
    FROM (SELECT DISTINCT household_id FROM touched_rows) AS t;
    RETURN NULL;
END $$;

CREATE TRIGGER sync_poke_on_insert AFTER INSERT ON sync_changes REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_poke();
CREATE TRIGGER sync_poke_on_update AFTER UPDATE ON sync_changes REFERENCING NEW TABLE AS touched_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sync_poke();

-- What exists already is in the log, as of this migration's transaction.
INSERT INTO sync_changes (household_id, type, record_id, person, parent, version, deleted, xid, changed_at)
SELECT id, 'HOUSEHOLD', id::text, NULL::uuid, NULL::uuid, version, false, pg_current_xact_id(), now() FROM households
UNION ALL
SELECT household_id, 'MEMBER', user_id::text, NULL, NULL, version, false, pg_current_xact_id(), now() FROM household_members
UNION ALL
SELECT household_id, 'LABEL', id::text, NULL, NULL, version, false, pg_current_xact_id(), now() FROM labels
UNION ALL
SELECT household_id, 'TASK', id::text, NULL, NULL, version, false, pg_current_xact_id(), now() FROM task_items
UNION ALL
SELECT household_id, 'STORE', id::text, NULL, NULL, version, false, pg_current_xact_id(), now() FROM stores
UNION ALL
SELECT household_id, 'PRODUCT', id::text, NULL, store_id, version, removed_at IS NOT NULL, pg_current_xact_id(), now() FROM products
UNION ALL
SELECT household_id, 'STORE_EVENT', id::text, NULL, store_id, version, false, pg_current_xact_id(), now() FROM store_events
UNION ALL
SELECT household_id, 'NOTIFICATION', id::text, user_id, store_id, version, false, pg_current_xact_id(), now() FROM notifications;
