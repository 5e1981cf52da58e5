-- Read state is per member, and reading is what viewers do: every member may mark their own
-- events read. The `markRead` rule moves from MEMBER to VIEWER (roles above inherit it). An
-- installation that changed its role rules keeps its other rules as they are.
UPDATE role_permissions
SET rules = COALESCE((SELECT jsonb_agg(rule ORDER BY position) FROM jsonb_array_elements(rules) WITH ORDINALITY AS r(rule, position)
                      WHERE NOT (rule @> '{"action": "markRead", "subject": "Event"}'::jsonb)), '[]'::jsonb)
WHERE role = 'MEMBER';

UPDATE role_permissions
SET rules = rules || '[{"action": "markRead", "subject": "Event", "conditions": {"householdId": "${household.id}"}}]'::jsonb
WHERE role = 'VIEWER' AND NOT rules @> '[{"action": "markRead", "subject": "Event"}]'::jsonb;
