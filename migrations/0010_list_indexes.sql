-- Pages of a household's stores and members are read in the order of these indexes (oldest
-- first, by id or user on ties), per household: the keyset and LIMIT stop early instead of
-- sorting every row of the household.
CREATE INDEX stores_page ON stores (household_id, created_at, id);
CREATE INDEX household_members_page ON household_members (household_id, joined_at, user_id);
