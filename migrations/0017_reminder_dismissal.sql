-- A delivered reminder is closed on the device once its item is completed or deleted (issue 36):
-- a DISMISS delivery to each browser the reminder reached, beside the NOTIFY one that showed it.
ALTER TABLE deliveries ADD COLUMN purpose text NOT NULL DEFAULT 'NOTIFY' CHECK (purpose IN ('NOTIFY', 'DISMISS'));
ALTER TABLE deliveries DROP CONSTRAINT deliveries_notification_id_channel_id_key;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_once UNIQUE (notification_id, channel_id, purpose);
