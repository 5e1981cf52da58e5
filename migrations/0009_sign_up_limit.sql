-- Sign-ups are counted per client address too (each costs a bcrypt hash), in the same table and
-- window as failed password checks, under their own scope.
ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_scope_check;
ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_scope_check CHECK (scope IN ('email', 'address', 'sign-up'));
