-- Tips and photos that are stored: tips people added (a suggested edit of type 'tip', stored when accepted) and
-- tips and photos read from an imported dataset. Generated places have tips and photos derived from their id
-- at read time (services/places/src/media/), so they have no rows here.

CREATE TABLE places_tips (
  fsq_tip_id text PRIMARY KEY,
  fsq_place_id text NOT NULL,
  created_at timestamptz NOT NULL,
  text text NOT NULL,
  lang text,
  url text,
  agree_count integer NOT NULL DEFAULT 0 CHECK (agree_count >= 0),
  disagree_count integer NOT NULL DEFAULT 0 CHECK (disagree_count >= 0),
  -- {id, created_at, prefix, suffix, width, height}: a photo attached to the tip
  photo jsonb,
  -- 'edit' (added in the editor or by suggest/tip, stored when the suggestion was accepted) or 'import'
  source text NOT NULL CHECK (source IN ('edit', 'import')),
  edit_id text REFERENCES places_edits (id),
  -- attribution of an added tip (the suggested edit's author)
  organization_id text,
  app_id text,
  user_id bigint
);
CREATE INDEX places_tips_place ON places_tips (fsq_place_id, created_at DESC);

CREATE TABLE places_photos (
  id text PRIMARY KEY,
  fsq_place_id text NOT NULL,
  created_at timestamptz NOT NULL,
  prefix text NOT NULL,
  suffix text NOT NULL,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  classifications text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX places_photos_place ON places_photos (fsq_place_id, created_at DESC);

-- A tip is suggested like an edit and decided by the same votes and trust.
ALTER TABLE places_edits DROP CONSTRAINT places_edits_suggested_edit_type_check;
ALTER TABLE places_edits ADD CONSTRAINT places_edits_suggested_edit_type_check
  CHECK (suggested_edit_type IN ('edit', 'remove', 'flag', 'merge', 'new_place', 'tip'));
