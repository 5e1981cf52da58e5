-- Household tasks and events, labels, subtasks and reminders (HearthCore/Tasks).

CREATE TABLE labels (
    id                    uuid        PRIMARY KEY,
    household_id          uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    name                  text        NOT NULL,
    -- Upper-case #RRGGBB; colour names are mapped to a fixed hex before they get here.
    color                 text        NOT NULL CHECK (color ~ '^#[0-9A-F]{6}$'),
    created_at            timestamptz NOT NULL
);

-- One label per name in a household, case aside.
CREATE UNIQUE INDEX labels_name ON labels (household_id, lower(name));

CREATE TABLE task_items (
    id                    uuid        PRIMARY KEY,
    household_id          uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    kind                  text        NOT NULL CHECK (kind IN ('TASK', 'EVENT')),
    title                 text        NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    notes                 text,
    priority              text        NOT NULL CHECK (priority IN ('NONE', 'LOW', 'MEDIUM', 'HIGH')),
    deadline              timestamptz,
    estimate_minutes      integer     CHECK (estimate_minutes BETWEEN 1 AND 525600),
    assignee_id           uuid        REFERENCES users (id) ON DELETE SET NULL,
    starts_at             timestamptz,
    ends_at               timestamptz,
    location              text,
    completed_at          timestamptz,
    completed_by          uuid        REFERENCES users (id) ON DELETE SET NULL,
    created_by            uuid        REFERENCES users (id) ON DELETE SET NULL,
    created_at            timestamptz NOT NULL,
    updated_by            uuid        REFERENCES users (id) ON DELETE SET NULL,
    updated_at            timestamptz NOT NULL,
    -- A digest of what the create carried: a retried create with the same id must match it.
    create_digest         text        NOT NULL,
    -- When the item occurs: an event's start, else a task's deadline (the agenda's order).
    occurs_at             timestamptz GENERATED ALWAYS AS (COALESCE(starts_at, deadline)) STORED,
    -- The reminder: stable id, an explicit time (else the occurrence), and when it fires next
    -- (NULL: nothing pending), leased by one instance's loop at a time.
    reminder_id           uuid        NOT NULL,
    remind_at             timestamptz,
    reminder_due_at       timestamptz,
    reminder_lease_owner  uuid,
    reminder_lease_expires_at timestamptz,
    CHECK (kind = 'TASK' OR (starts_at IS NOT NULL AND ends_at IS NOT NULL AND ends_at >= starts_at))
);

CREATE INDEX task_items_occurs ON task_items (household_id, occurs_at, id);
CREATE INDEX task_items_deadline ON task_items (household_id, deadline, id);
CREATE INDEX task_items_created ON task_items (household_id, created_at DESC, id);
-- Events overlapping a range: those starting before its end and ending after its start.
CREATE INDEX task_items_events ON task_items (household_id, ends_at, starts_at) WHERE kind = 'EVENT';
CREATE INDEX task_items_reminders ON task_items (reminder_due_at) WHERE reminder_due_at IS NOT NULL;

CREATE TABLE task_labels (
    task_id               uuid        NOT NULL REFERENCES task_items (id) ON DELETE CASCADE,
    label_id              uuid        NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
    PRIMARY KEY (task_id, label_id)
);

CREATE INDEX task_labels_label ON task_labels (label_id);

CREATE TABLE subtasks (
    id                    uuid        PRIMARY KEY,
    task_id               uuid        NOT NULL REFERENCES task_items (id) ON DELETE CASCADE,
    position              integer     NOT NULL,
    title                 text        NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    done                  boolean     NOT NULL DEFAULT false,
    created_at            timestamptz NOT NULL
);

CREATE INDEX subtasks_task ON subtasks (task_id, position);
