-- The place store. The first 25 columns are those of the open places dataset (its geom and bbox are derived
-- from latitude/longitude in the view fsq_os_places below); the rest serve search.
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE places (
  fsq_place_id text PRIMARY KEY,
  name text NOT NULL,
  latitude float8 NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude float8 NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  address text,
  locality text,
  region text,
  postcode text,
  admin_region text,
  post_town text,
  po_box text,
  country text,
  date_created date,
  date_refreshed date,
  date_closed date,
  tel text,
  website text,
  email text,
  facebook_id text,
  instagram text,
  twitter text,
  fsq_category_ids text[] NOT NULL DEFAULT '{}',
  fsq_category_labels text[] NOT NULL DEFAULT '{}',
  placemaker_url text,
  unresolved_flags text[] NOT NULL DEFAULT '{}',
  -- search columns
  fsq_chain_ids text[] NOT NULL DEFAULT '{}',
  price smallint CHECK (price BETWEEN 1 AND 4),
  rating real CHECK (rating BETWEEN 0 AND 10),
  popularity real CHECK (popularity BETWEEN 0 AND 1),
  -- [{day: 1..7 (Monday = 1), open: "HHMM", close: "HHMM" (past 2400 when it closes after midnight)}]
  hours jsonb,
  -- minutes of the local week (Monday 00:00 = 0) during which the place is open
  open_week int4multirange,
  time_zone text,
  -- lower-cased name, category names and chain names: what `query` matches
  search_text text NOT NULL,
  -- ll_to_earth(latitude, longitude) as a plain cube: indexed with GiST (an expression index on
  -- ll_to_earth would be lost by a dump and restore)
  pt cube NOT NULL
);

CREATE INDEX places_pt_gist ON places USING gist (pt);
CREATE INDEX places_search_text_trgm ON places USING gin (search_text gin_trgm_ops);
CREATE INDEX places_category_ids ON places USING gin (fsq_category_ids);

-- The open places dataset's 27 columns, in its order (geom is WKB, big-endian; bbox a struct).
CREATE VIEW fsq_os_places AS
SELECT fsq_place_id, name, latitude, longitude, address, locality, region, postcode, admin_region, post_town,
       po_box, country, date_created, date_refreshed, date_closed, tel, website, email, facebook_id, instagram,
       twitter, fsq_category_ids, fsq_category_labels, placemaker_url, unresolved_flags,
       '\x0000000001'::bytea || float8send(longitude) || float8send(latitude) AS geom,
       jsonb_build_object('xmin', longitude, 'ymin', latitude, 'xmax', longitude, 'ymax', latitude) AS bbox
  FROM places;

-- The category taxonomy, in the dataset's categories layout (levels 1 to 6).
CREATE TABLE places_categories (
  category_id text PRIMARY KEY,
  category_level smallint NOT NULL CHECK (category_level BETWEEN 1 AND 6),
  category_name text NOT NULL,
  category_label text NOT NULL,
  parent_id text,
  short_name text NOT NULL,
  plural_name text NOT NULL,
  icon text,
  -- 'osm' (built from the OpenStreetMap presets) or 'import' (seen in an imported file)
  source text NOT NULL,
  level1_category_id text, level1_category_name text,
  level2_category_id text, level2_category_name text,
  level3_category_id text, level3_category_name text,
  level4_category_id text, level4_category_name text,
  level5_category_id text, level5_category_name text,
  level6_category_id text, level6_category_name text
);

CREATE TABLE places_chains (
  fsq_chain_id text PRIMARY KEY,
  name text NOT NULL,
  fsq_category_ids text[] NOT NULL DEFAULT '{}',
  -- ISO 3166-1 alpha-2 codes where the brand operates; '001' is the whole world
  countries text[] NOT NULL DEFAULT '{}',
  wikidata text,
  source_id text NOT NULL
);

-- Installation facts: the cursor signing secret, the reference data version, the demo seed marker.
CREATE TABLE places_meta (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- Calls per credential, endpoint and day (UTC), with the attribution each call carries.
CREATE TABLE places_usage (
  day date NOT NULL,
  credential_id text NOT NULL,
  endpoint text NOT NULL,
  credential_kind text NOT NULL,
  organization_id text NOT NULL,
  app_id text,
  user_id bigint,
  calls bigint NOT NULL DEFAULT 0,
  throttled bigint NOT NULL DEFAULT 0,
  last_call_at timestamptz NOT NULL,
  PRIMARY KEY (day, credential_id, endpoint)
);
CREATE INDEX places_usage_org ON places_usage (organization_id, day);
