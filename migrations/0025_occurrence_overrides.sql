-- One occurrence of a repeating event changed (issue 62; RFC 5545's RECURRENCE-ID override): a
-- moved start and end, another title, notes or place, for that occurrence only. A JSON list of
-- {"occurrence", "startsAt", "endsAt" (seconds since 1970), "title", "notes", "location" (absent:
-- the series')}, one per occurrence, kept with the series so every read of it has them.

ALTER TABLE task_items ADD COLUMN repeat_overrides jsonb NOT NULL DEFAULT '[]'
    CHECK (jsonb_typeof(repeat_overrides) = 'array' AND jsonb_array_length(repeat_overrides) <= 500);
