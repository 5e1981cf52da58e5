-- Things that come back (issue 62): an item's repeat rule, the occurrence it stands at, the
-- completions of its occurrences, whose turn it is, and who is away.
--
-- A repeating item keeps its series' first date (`repeat_start`, the RRULE's DTSTART) and the
-- occurrence it stands at now (`occurrence`: a task's current deadline as the rule placed it, an
-- event's first start). `occurrences_passed` counts the occurrences done or skipped, so COUNT ends
-- a series that repeats from completion. `rotation` is the members who take turns, in order.

ALTER TABLE task_items ADD COLUMN repeat_rule        text        CHECK (length(repeat_rule) BETWEEN 1 AND 500),
                       ADD COLUMN repeat_from        text        CHECK (repeat_from IN ('SCHEDULE', 'COMPLETION')),
                       ADD COLUMN repeat_exceptions  timestamptz[] NOT NULL DEFAULT '{}' CHECK (cardinality(repeat_exceptions) <= 500),
                       ADD COLUMN repeat_start       timestamptz,
                       ADD COLUMN occurrence         timestamptz,
                       ADD COLUMN occurrences_passed integer     NOT NULL DEFAULT 0 CHECK (occurrences_passed >= 0),
                       ADD COLUMN rotation           uuid[]      CHECK (cardinality(rotation) BETWEEN 1 AND 50),
                       ADD CONSTRAINT task_items_repeat CHECK ((repeat_rule IS NULL) = (repeat_from IS NULL)
                                                               AND (repeat_rule IS NULL OR (repeat_start IS NOT NULL AND occurrence IS NOT NULL)));

-- One row per completed occurrence: completing one twice (two phones, a re-sent push, two
-- calendar apps) meets the primary key and changes nothing.
CREATE TABLE task_completions (
    task_id        uuid        NOT NULL REFERENCES task_items (id) ON DELETE CASCADE,
    household_id   uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    occurrence     timestamptz NOT NULL,
    completed_at   timestamptz NOT NULL,
    completed_by   uuid        REFERENCES users (id) ON DELETE SET NULL,
    -- Whose turn it was.
    assignee_id    uuid        REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (task_id, occurrence)
);

CREATE INDEX task_completions_newest ON task_completions (task_id, completed_at DESC, occurrence DESC);
CREATE INDEX task_completions_household ON task_completions (household_id, completed_at);

-- Away until this moment: rotations pass over the member meanwhile (NULL: at home).
ALTER TABLE household_members ADD COLUMN away_until timestamptz;

-- A member who leaves (or is removed) leaves every rotation of the household; a task whose turn
-- was theirs passes to the next one in its rotation, and one whose rotation empties has none.
CREATE FUNCTION leave_rotations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE task_items t SET
        assignee_id = CASE WHEN t.assignee_id IN (SELECT o.user_id FROM old_rows o WHERE o.household_id = t.household_id)
                           THEN COALESCE(
                               (SELECT r.member FROM unnest(t.rotation) WITH ORDINALITY AS r(member, place)
                                WHERE r.place > array_position(t.rotation, t.assignee_id)
                                  AND r.member NOT IN (SELECT o.user_id FROM old_rows o WHERE o.household_id = t.household_id)
                                ORDER BY r.place LIMIT 1),
                               (SELECT r.member FROM unnest(t.rotation) WITH ORDINALITY AS r(member, place)
                                WHERE r.member NOT IN (SELECT o.user_id FROM old_rows o WHERE o.household_id = t.household_id)
                                ORDER BY r.place LIMIT 1))
                           ELSE t.assignee_id END,
        rotation = (SELECT array_agg(r.member ORDER BY r.place) FROM unnest(t.rotation) WITH ORDINALITY AS r(member, place)
                    WHERE r.member NOT IN (SELECT o.user_id FROM old_rows o WHERE o.household_id = t.household_id))
    WHERE t.rotation && (SELECT array_agg(o.user_id) FROM old_rows o WHERE o.household_id = t.household_id);
    RETURN NULL;
END $$;

CREATE TRIGGER leave_rotations AFTER DELETE ON household_members REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION leave_rotations();
