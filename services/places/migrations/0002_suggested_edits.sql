-- Suggested edits ("woes"), votes, the history of applied changes, and places taken out of the store by an
-- accepted removal or merge (kept whole, so that a rollback can put them back).

-- The Place field `description` (at most 300 characters), which edits can set.
ALTER TABLE places ADD COLUMN description text;

CREATE TABLE places_edits (
  id text PRIMARY KEY,
  -- the place the edit is about; null for a new-place suggestion
  fsq_place_id text,
  suggested_edit_type text NOT NULL CHECK (suggested_edit_type IN ('edit', 'remove', 'flag', 'merge', 'new_place')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected', 'rolled_back')),
  -- [{fsq_place_id, field, from, to}]: the values seen when the edit was made, and the proposed ones
  changes jsonb NOT NULL,
  -- reason, comment, problem, fields, duplicate_fsq_place_ids: what the edit says besides its changes
  details jsonb NOT NULL DEFAULT '{}',
  -- where the edit is, for the review queue (the place's position, or the proposed one)
  latitude float8 NOT NULL,
  longitude float8 NOT NULL,
  created_at timestamptz NOT NULL,
  resolved_time timestamptz,
  -- how it was resolved: quorum | trusted | votes | stale | rolled_back
  resolution text,
  resolution_reason text,
  -- the weighted tally at resolution
  tally jsonb,
  rolled_back_time timestamptz,
  rolled_back_reason text,
  created_fsq_place_id text,
  matched_fsq_place_id text,
  -- attribution: "user:<id>" for a user's credential, "organization:<id>" for a service key
  contributor text NOT NULL,
  organization_id text NOT NULL,
  app_id text,
  user_id bigint,
  credential_kind text NOT NULL,
  credential_id text NOT NULL
);
CREATE INDEX places_edits_pending ON places_edits (created_at) WHERE status = 'pending';
CREATE INDEX places_edits_place ON places_edits (fsq_place_id, created_at);
CREATE INDEX places_edits_contributor ON places_edits (contributor, created_at DESC);

CREATE TABLE places_edit_votes (
  edit_id text NOT NULL REFERENCES places_edits (id),
  contributor text NOT NULL,
  vote text NOT NULL CHECK (vote IN ('approve', 'reject', 'skip')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  organization_id text NOT NULL,
  app_id text,
  user_id bigint,
  credential_kind text NOT NULL,
  credential_id text NOT NULL,
  PRIMARY KEY (edit_id, contributor)
);
CREATE INDEX places_edit_votes_contributor ON places_edit_votes (contributor);

-- One row per field changed by an applied edit or restored by a rollback, with who and when.
CREATE TABLE places_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  fsq_place_id text NOT NULL,
  edit_id text NOT NULL REFERENCES places_edits (id),
  action text NOT NULL CHECK (action IN ('apply', 'rollback')),
  field text NOT NULL,
  from_value jsonb,
  to_value jsonb,
  at timestamptz NOT NULL,
  -- the edit's author for 'apply'; 'operator' (no organization) for 'rollback'
  organization_id text,
  app_id text,
  user_id bigint,
  credential_kind text NOT NULL
);
CREATE INDEX places_history_place ON places_history (fsq_place_id, id DESC);
CREATE INDEX places_history_edit ON places_history (edit_id);

CREATE TABLE places_removed (
  fsq_place_id text PRIMARY KEY,
  -- the whole places row, as to_jsonb gives it
  place jsonb NOT NULL,
  edit_id text NOT NULL REFERENCES places_edits (id),
  removed_at timestamptz NOT NULL
);
