-- Household imports are counted per person (each can write a hundred thousand rows), in the same
-- table as failed password checks and sign-ups, under their own scope.
ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_scope_check;
ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_scope_check CHECK (scope IN ('email', 'address', 'sign-up', 'import'));
