-- An editing-UI session remembers the access token it was opened from, so the editor API can check on
-- every write that the person's consent includes the placemaker permission (and that the token is live).
ALTER TABLE browser_sessions ADD COLUMN access_token_id uuid REFERENCES access_tokens (id);
