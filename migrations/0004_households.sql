-- Households, their members, invitations and activity log, and the role permissions (CASL rules
-- stored as data) that decide what each member may do (the households and permissions services).

CREATE TABLE households (
    id             uuid        PRIMARY KEY,
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    description    text        NOT NULL DEFAULT '' CHECK (length(description) <= 1000),
    -- An IANA time zone name, validated by the service.
    time_zone      text        NOT NULL,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);

CREATE TABLE household_members (
    household_id   uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    user_id        uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role           text        NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER', 'VIEWER')),
    joined_at      timestamptz NOT NULL,
    PRIMARY KEY (household_id, user_id)
);

CREATE INDEX household_members_user ON household_members (user_id);

CREATE TABLE household_invitations (
    id             uuid        PRIMARY KEY,
    household_id   uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    -- SHA-256 of the code; the code itself is shown once and never stored.
    code_hash      bytea       NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    role           text        NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER', 'VIEWER')),
    created_by     uuid        REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    max_uses       integer     NOT NULL CHECK (max_uses BETWEEN 1 AND 1000),
    uses           integer     NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    revoked_at     timestamptz
);

CREATE INDEX household_invitations_page ON household_invitations (household_id, created_at, id);

-- What happened in a household, newest last; the id orders entries and is the page cursor.
-- A person who deleted their account stays as a NULL actor ("deleted user").
CREATE TABLE household_activity (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    household_id   uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    kind           text        NOT NULL,
    actor_id       uuid        REFERENCES users (id) ON DELETE SET NULL,
    -- The member the entry is about (joined, left, role changed…), when there is one.
    member_id      uuid        REFERENCES users (id) ON DELETE SET NULL,
    role           text,
    previous_role  text,
    invitation_id  uuid,
    created_at     timestamptz NOT NULL
);

CREATE INDEX household_activity_page ON household_activity (household_id, id);

-- Role permissions as CASL rules (CASL's persisted-permissions pattern). "${user.id}" and
-- "${household.id}" are replaced by the person's and the household's ids when an ability is
-- built. A member gets the rules of their role and of every role below it (VIEWER < MEMBER <
-- ADMIN < OWNER); SIGNED_IN applies to everyone signed in. Hearth refuses to start when a rule
-- here does not load (an unknown operator, say), naming the role and the rule.
CREATE TABLE role_permissions (
    role           text        PRIMARY KEY CHECK (role IN ('SIGNED_IN', 'VIEWER', 'MEMBER', 'ADMIN', 'OWNER')),
    rules          jsonb       NOT NULL CHECK (jsonb_typeof(rules) = 'array')
);

INSERT INTO role_permissions (role, rules) VALUES
('SIGNED_IN', '[
  {"action": "read", "subject": "User", "fields": ["id", "displayName", "avatarURL"]},
  {"action": ["read", "update"], "subject": "User", "conditions": {"id": "${user.id}"}},
  {"action": "create", "subject": "Household"},
  {"action": "accept", "subject": "Invitation"}
]'),
('VIEWER', '[
  {"action": "read", "subject": "Household", "conditions": {"id": "${household.id}"}},
  {"action": "read", "subject": ["Member", "Activity", "Store", "Product", "Event", "Task", "Label"],
   "conditions": {"householdId": "${household.id}"}},
  {"action": "delete", "subject": "Member", "conditions": {"householdId": "${household.id}", "userId": "${user.id}"}}
]'),
('MEMBER', '[
  {"action": ["create", "update", "complete"], "subject": "Task", "conditions": {"householdId": "${household.id}"}},
  {"action": "create", "subject": "Label", "conditions": {"householdId": "${household.id}"}},
  {"action": "sync", "subject": "Store", "conditions": {"householdId": "${household.id}"}},
  {"action": "markRead", "subject": "Event", "conditions": {"householdId": "${household.id}"}}
]'),
('ADMIN', '[
  {"action": "update", "subject": "Household", "conditions": {"id": "${household.id}"}},
  {"action": "manage", "subject": "Store", "conditions": {"householdId": "${household.id}"}},
  {"action": "manage", "subject": ["Member", "Invitation"],
   "conditions": {"householdId": "${household.id}", "role": {"$in": ["MEMBER", "VIEWER"]}}},
  {"action": "delete", "subject": "Task", "conditions": {"householdId": "${household.id}"}},
  {"action": "manage", "subject": "Label", "conditions": {"householdId": "${household.id}"}}
]'),
('OWNER', '[
  {"action": "manage", "subject": "all", "conditions": {"householdId": "${household.id}"}},
  {"action": "manage", "subject": "Household", "conditions": {"id": "${household.id}"}}
]');
