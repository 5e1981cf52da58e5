-- A poke names the sync client whose push made the change, when a push made it: push sets
-- hearth.sync_client for each mutation's transaction. A device subscribed with its client id is
-- told a poke that announces only its own pushed changes, which the pull after its push brought
-- already. The message keeps its body (the household), so an instance not yet upgraded reads it.
CREATE OR REPLACE FUNCTION sync_poke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('hearth_bus', json_build_object('topic', 'sync', 'origin', '00000000-0000-0000-0000-000000000000',
                                                      'body', t.household_id,
                                                      'client', NULLIF(current_setting('hearth.sync_client', true), ''))::text)
    FROM (SELECT DISTINCT household_id FROM touched_rows) AS t;
    RETURN NULL;
END $$;
