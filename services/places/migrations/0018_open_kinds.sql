-- `category + open_now` around a point (scenario (c) of bench/places-search.ts) reads its own index: one row per
-- place with opening hours and per category of its own or ancestor of those (its "kinds"), keyed by the kind and
-- by where and when in the UTC day it is open. On 10M places the search index's category-and-slot tokens (0017)
-- still passed every restaurant of a city's circle open at some minute of the current 3-hour slot, and each was
-- read from `places` (wide rows, mostly not cached) to find it closed: 1,100–1,600 blocks a search in Indian
-- cities at 10:45 local. Here the hours a row covers are in its key, so closed places are passed over inside the
-- index, and the exact check reads only the few rows of this narrow table that pass (docs/operations.md).
--
-- span: the place's point (earth coordinates, as places.pt) with a fourth dimension, the minutes of the UTC day
-- during which it is open on some day of the week: the hull of its open intervals in local minutes of the day,
-- moved to UTC by its zone's offsets of mid-January and mid-July (daylight saving time on either side), as
-- [start, end - 1] with start in [0, 1440) and end possibly past midnight (the search asks for the minute now and
-- the same minute plus 1440); [0, 1439] when that covers the whole day. A necessary condition only: the day of the
-- week and the gaps of the day are checked exactly on open_week, copied here with time_zone.
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE places_open_kinds (
  fsq_place_id text NOT NULL,
  -- The first 32 bits of the MD5 of the category id, signed (data/open-hours.ts: openKind).
  kind int4 NOT NULL,
  span cube NOT NULL,
  time_zone text,
  open_week int4multirange NOT NULL
);
-- Derived data: sandbox snapshots leave it out, and the triggers rebuild it from places on a restore.
COMMENT ON TABLE places_open_kinds IS 'derived from places by its triggers (0018)';

-- The rows of one place: none without opening hours.
CREATE FUNCTION places_open_kinds_of(p places) RETURNS SETOF places_open_kinds
LANGUAGE sql STABLE AS $$
  WITH ranges AS (
    SELECT lower(r) AS l, upper(r) AS u, i, count(*) OVER () AS n
      FROM unnest(p.open_week) WITH ORDINALITY AS each(r, i)
  ), pieces AS (
    -- Each open interval as local minutes of its day, [s, e), e past 1440 when it runs past midnight. An
    -- interval that runs from Sunday into Monday is stored as two, [0, …) first and (…, 10080) last: joined here.
    SELECT r.l % 1440 AS s,
           r.l % 1440 + r.u - r.l + CASE WHEN r.i = r.n AND r.u = 10080 AND f.l = 0 THEN f.u ELSE 0 END AS e
      FROM ranges AS r, (SELECT l, u FROM ranges WHERE i = 1) AS f
     WHERE NOT (r.i = 1 AND r.n > 1 AND r.l = 0 AND upper(p.open_week) = 10080)
  ), hull AS (
    SELECT min(s) AS a, max(e) AS b FROM pieces
  ), offsets AS (
    -- Minutes east of UTC in mid-January and mid-July of this year.
    SELECT max(o) AS hi, min(o) AS lo
      FROM (SELECT (extract(epoch FROM make_timestamp(y, m, 15, 12, 0, 0) AT TIME ZONE 'UTC')
                    - extract(epoch FROM make_timestamp(y, m, 15, 12, 0, 0) AT TIME ZONE coalesce(p.time_zone, 'UTC')))
                   / 60 AS o
              FROM (SELECT extract(year FROM now())::int AS y) AS year, (VALUES (1), (7)) AS month(m)) AS each
  ), utc AS (
    SELECT a - hi AS first, b - lo AS past FROM hull, offsets
  ), span AS (
    SELECT CASE WHEN past - first >= 1440 THEN 0 ELSE ((first::int % 1440) + 1440) % 1440 END AS start,
           CASE WHEN past - first >= 1440 THEN 1439
                ELSE ((first::int % 1440) + 1440) % 1440 + (past - first)::int - 1 END AS stop
      FROM utc
  )
  SELECT p.fsq_place_id, ('x' || left(md5(k.kind), 8))::bit(32)::int, cube(cube(p.pt), span.start, span.stop),
         p.time_zone, p.open_week
    FROM span,
         -- The ancestors by a subquery on the primary key: a join here was planned as a hash join reading
         -- all of places_categories for every place (0.16 ms a place, most of a bulk load's cost for this table).
         (SELECT DISTINCT a.kind
            FROM unnest(p.fsq_category_ids) AS c(id),
                 unnest(c.id || (SELECT ARRAY[pc.level1_category_id, pc.level2_category_id, pc.level3_category_id,
                                              pc.level4_category_id, pc.level5_category_id, pc.level6_category_id]
                                   FROM places_categories AS pc WHERE pc.category_id = c.id)) AS a(kind)
           WHERE a.kind IS NOT NULL) AS k
   WHERE p.open_week IS NOT NULL AND NOT isempty(p.open_week)
$$;

-- Kept by triggers on places, so that every way of writing a place (import, generation, edits, removal and
-- restoring) keeps them, one statement at a time. Created before the rows are filled in: CREATE TRIGGER holds
-- off other sessions' writes to places until this migration commits, so none is missed in between.
CREATE FUNCTION places_open_kinds_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The bulk loads (generation, import) COPY the rows they computed themselves, the same (places-write.ts).
  IF current_setting('cairn.places_open_kinds_by', true) = 'copy' THEN
    RETURN NULL;
  END IF;
  INSERT INTO places_open_kinds SELECT k.* FROM added AS p, LATERAL places_open_kinds_of(p) AS k;
  RETURN NULL;
END $$;

CREATE FUNCTION places_open_kinds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the places whose hours, zone, categories or point changed: most updates change none of them.
  DELETE FROM places_open_kinds AS k
   USING before AS o LEFT JOIN after AS n ON n.fsq_place_id = o.fsq_place_id
   WHERE k.fsq_place_id = o.fsq_place_id
     AND (n.fsq_place_id IS NULL
          OR (n.open_week, n.time_zone, n.fsq_category_ids, n.pt)
             IS DISTINCT FROM (o.open_week, o.time_zone, o.fsq_category_ids, o.pt));
  INSERT INTO places_open_kinds
  SELECT k.*
    FROM after AS n LEFT JOIN before AS o ON o.fsq_place_id = n.fsq_place_id,
         LATERAL places_open_kinds_of(n) AS k
   WHERE o.fsq_place_id IS NULL
      OR (n.open_week, n.time_zone, n.fsq_category_ids, n.pt)
         IS DISTINCT FROM (o.open_week, o.time_zone, o.fsq_category_ids, o.pt);
  RETURN NULL;
END $$;

CREATE FUNCTION places_open_kinds_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM places_open_kinds AS k USING removed AS o WHERE k.fsq_place_id = o.fsq_place_id;
  RETURN NULL;
END $$;

CREATE FUNCTION places_open_kinds_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- DELETE, not TRUNCATE: places may be truncated in one statement with this table (a sandbox reset).
  DELETE FROM places_open_kinds;
  RETURN NULL;
END $$;

CREATE TRIGGER places_open_kinds_insert AFTER INSERT ON places
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION places_open_kinds_added();
CREATE TRIGGER places_open_kinds_update AFTER UPDATE ON places
  REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION places_open_kinds_changed();
CREATE TRIGGER places_open_kinds_delete AFTER DELETE ON places
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION places_open_kinds_removed();
CREATE TRIGGER places_open_kinds_truncate AFTER TRUNCATE ON places
  FOR EACH STATEMENT EXECUTE FUNCTION places_open_kinds_emptied();

-- The rows of the places there are, then the indexes (built once rather than kept row by row).
INSERT INTO places_open_kinds SELECT k.* FROM places AS p, LATERAL places_open_kinds_of(p) AS k;

-- The kinds of a place first (btree_gist), then where and when: one kind's rows form their own subtrees.
CREATE INDEX places_open_kinds_span ON places_open_kinds USING gist (kind, span);
-- Rows are replaced by place when hours, zone, categories or position change (an edit, an import).
CREATE INDEX places_open_kinds_place ON places_open_kinds USING hash (fsq_place_id);

-- Statistics for the planner (the walks of places-search.ts are planned on them).
ANALYZE places_open_kinds;
