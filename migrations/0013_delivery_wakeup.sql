-- Deliveries queued wake the delivery loops at once instead of at their next poll: a message on
-- the event bus's channel after each statement that queues some, delivered when the transaction
-- commits (so never before the rows can be seen) and folded into one per transaction. The zero
-- origin is no instance's, so every instance hears it, the one that queued them too.
CREATE FUNCTION deliveries_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM queued_rows) THEN
        PERFORM pg_notify('hearth_bus', '{"topic":"deliveries","origin":"00000000-0000-0000-0000-000000000000","body":null}');
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER deliveries_queued AFTER INSERT ON deliveries REFERENCING NEW TABLE AS queued_rows
    FOR EACH STATEMENT EXECUTE FUNCTION deliveries_queued();
