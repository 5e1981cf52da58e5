-- What a reminder's action links did (issue 36): each action of a notification is performed at
-- most once; the same link POSTed again answers with what was done. The links themselves are
-- not stored: they are signed with a key derived from the server's secret key.
CREATE TABLE notification_actions (
    notification_id       uuid        NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    action                text        NOT NULL CHECK (action IN ('COMPLETE', 'SNOOZE')),
    task_id               uuid        NOT NULL,
    performed_at          timestamptz NOT NULL,
    PRIMARY KEY (notification_id, action)
);
