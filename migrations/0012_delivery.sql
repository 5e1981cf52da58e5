-- Notifications that reach people while their apps are closed (HearthCore/Delivery): each
-- person's channels (Web Push subscriptions, ntfy topics, signed webhooks), the outbox of
-- deliveries that commit with their notification, and each channel's recent attempts. The VAPID
-- key pair lives in hearth_settings ('vapid_private_key', sealed with the server's secret key),
-- made by the first instance that needs it.

-- What a notification is about, so a client (and a channel's payload) can act on it.
ALTER TABLE notifications
    ADD COLUMN kind text NOT NULL DEFAULT 'STORE_CHANGES' CHECK (kind IN ('STORE_CHANGES', 'REMINDER', 'TASK_ASSIGNED', 'MEMBERSHIP')),
    ADD COLUMN task_id uuid,
    -- DONE once the item a reminder was about is completed or deleted.
    ADD COLUMN state text NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'DONE'));

-- Notifications without a store so far are reminders.
UPDATE notifications SET kind = 'REMINDER' WHERE store_id IS NULL;

CREATE INDEX notifications_task ON notifications (task_id) WHERE task_id IS NOT NULL;

CREATE TABLE delivery_channels (
    id                    uuid        PRIMARY KEY,
    user_id               uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind                  text        NOT NULL CHECK (kind IN ('WEB_PUSH', 'NTFY', 'WEBHOOK')),
    name                  text        NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    -- The push endpoint, the ntfy topic's URL, or the webhook's URL.
    url                   text        NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
    -- A push subscription's keys, base64url as the browser gives them.
    push_p256dh           text,
    push_auth             text,
    -- The ntfy access token or the webhook's signing secret, sealed with the server's secret key.
    secret                bytea,
    -- The notification kinds the channel takes; NULL: all of them.
    kinds                 text[],
    enabled               boolean     NOT NULL DEFAULT true,
    disabled_reason       text,
    created_at            timestamptz NOT NULL,
    last_success_at       timestamptz,
    last_failure_at       timestamptz,
    last_failure          text,
    consecutive_failures  integer     NOT NULL DEFAULT 0,
    -- Since when every attempt failed (a channel failing for a day is disabled).
    failing_since         timestamptz,
    CHECK (kind <> 'WEB_PUSH' OR (push_p256dh IS NOT NULL AND push_auth IS NOT NULL))
);

CREATE INDEX delivery_channels_user ON delivery_channels (user_id, created_at, id);
-- A browser registering its subscription again updates it instead of adding a second channel.
CREATE UNIQUE INDEX delivery_channels_push ON delivery_channels (user_id, url) WHERE kind = 'WEB_PUSH';

-- The outbox: one row per notification and channel, written in the notification's transaction.
CREATE TABLE deliveries (
    id                    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id       uuid        NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    channel_id            uuid        NOT NULL REFERENCES delivery_channels (id) ON DELETE CASCADE,
    state                 text        NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'SENT', 'FAILED')),
    attempts              integer     NOT NULL DEFAULT 0,
    -- When it may be tried (next): now, after quiet hours, or after a back-off.
    due_at                timestamptz NOT NULL,
    -- Retries stop after this (a day after it was queued).
    give_up_at            timestamptz NOT NULL,
    -- The instance trying it now, until the lease runs out.
    lease_owner           text,
    lease_expires_at      timestamptz,
    last_status           integer,
    last_error            text,
    created_at            timestamptz NOT NULL,
    sent_at               timestamptz,
    UNIQUE (notification_id, channel_id)
);

CREATE INDEX deliveries_due ON deliveries (due_at) WHERE state = 'PENDING';
CREATE INDEX deliveries_channel ON deliveries (channel_id) WHERE state = 'PENDING';

-- Each channel's attempts, newest kept (the delivery log its owner reads).
CREATE TABLE delivery_attempts (
    id                    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id            uuid        NOT NULL REFERENCES delivery_channels (id) ON DELETE CASCADE,
    notification_id       uuid,
    attempted_at          timestamptz NOT NULL,
    -- The receiver's HTTP status; NULL when none came (network error, timeout).
    status                integer,
    latency_ms            integer     NOT NULL,
    outcome               text        NOT NULL CHECK (outcome IN ('SENT', 'RETRY', 'FAILED', 'GONE')),
    error                 text
);

CREATE INDEX delivery_attempts_channel ON delivery_attempts (channel_id, id DESC);
