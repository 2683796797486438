-- A fifth dimension for places_open_kinds.span (0018): the minutes of the UTC week during which the place may be
-- open. The minutes of the day alone hold a restaurant open until 23:00 on Saturdays as open at 22:30 on every
-- day; on a Sunday night in Paris at 10M places, the walk of `category + open_now` passed 852 such rows to the
-- exact check for 12 kept (1,038 buffers, 18 ms; docs/operations.md). Their longest closure, Sunday evening to
-- Monday, is now outside their span.
--
-- span: as in 0018 (the point, then the minutes of the UTC day), then the week: the smallest arc of the week that
-- holds every open interval (from the opening after the longest closure to the closing before it; the first
-- longest when several are as long), in local minutes of the week (Monday 00:00 = 0), moved to UTC by the zone's
-- offsets of mid-January and mid-July, as [start, end - 1] with start in [0, 10080) and end possibly past the end
-- of the week (the search asks for the minute now and the same minute plus 10080); [0, 10079] when that covers
-- the whole week. data/open-hours.ts: openKindSpan computes the same for the bulk loads.
CREATE OR REPLACE FUNCTION places_open_kinds_of(p places) RETURNS SETOF places_open_kinds
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
  ), closures AS (
    -- The closure after each interval, until the next one (after the last, until the first a week later).
    SELECT r.i, r.u AS closing,
           coalesce(lead(r.l) OVER (ORDER BY r.i), f.l + 10080) - r.u AS length,
           coalesce(lead(r.l) OVER (ORDER BY r.i), f.l) AS opening,
           r.i = r.n AS last
      FROM ranges AS r, (SELECT l FROM ranges WHERE i = 1) AS f
  ), week AS (
    SELECT opening AS a, closing + CASE WHEN last THEN 0 ELSE 10080 END AS b
      FROM closures ORDER BY length DESC, i LIMIT 1
  ), offsets AS (
    -- Minutes east of UTC in mid-January and mid-July of this year.
    SELECT max(o) AS hi, min(o) AS lo
      FROM (SELECT (extract(epoch FROM make_timestamp(y, m, 15, 12, 0, 0) AT TIME ZONE 'UTC')
                    - extract(epoch FROM make_timestamp(y, m, 15, 12, 0, 0) AT TIME ZONE coalesce(p.time_zone, 'UTC')))
                   / 60 AS o
              FROM (SELECT extract(year FROM now())::int AS y) AS year, (VALUES (1), (7)) AS month(m)) AS each
  ), utc AS (
    SELECT (hull.a - hi)::int AS day_first, (hull.b - lo)::int AS day_past,
           (week.a - hi)::int AS week_first, (week.b - lo)::int AS week_past
      FROM hull, week, offsets
  ), span AS (
    SELECT CASE WHEN day_past - day_first >= 1440 THEN 0 ELSE (day_first % 1440 + 1440) % 1440 END AS day_start,
           CASE WHEN day_past - day_first >= 1440 THEN 1439
                ELSE (day_first % 1440 + 1440) % 1440 + day_past - day_first - 1 END AS day_stop,
           CASE WHEN week_past - week_first >= 10080 THEN 0 ELSE (week_first % 10080 + 10080) % 10080 END
             AS week_start,
           CASE WHEN week_past - week_first >= 10080 THEN 10079
                ELSE (week_first % 10080 + 10080) % 10080 + week_past - week_first - 1 END AS week_stop
      FROM utc
  )
  SELECT p.fsq_place_id, ('x' || left(md5(k.kind), 8))::bit(32)::int,
         cube(cube(cube(p.pt), span.day_start, span.day_stop), span.week_start, span.week_stop),
         p.time_zone, p.open_week
    FROM span,
         -- The ancestors by a subquery on the primary key (see 0018).
         (SELECT DISTINCT a.kind
            FROM unnest(p.fsq_category_ids) AS c(id),
                 unnest(c.id || (SELECT ARRAY[pc.level1_category_id, pc.level2_category_id, pc.level3_category_id,
                                              pc.level4_category_id, pc.level5_category_id, pc.level6_category_id]
                                   FROM places_categories AS pc WHERE pc.category_id = c.id)) AS a(kind)
           WHERE a.kind IS NOT NULL) AS k
   WHERE p.open_week IS NOT NULL AND NOT isempty(p.open_week)
$$;

-- The rows again, then the indexes (built once rather than kept row by row).
DROP INDEX places_open_kinds_span;
DROP INDEX places_open_kinds_place;
TRUNCATE places_open_kinds;
INSERT INTO places_open_kinds SELECT k.* FROM places AS p, LATERAL places_open_kinds_of(p) AS k;
CREATE INDEX places_open_kinds_span ON places_open_kinds USING gist (kind, span);
CREATE INDEX places_open_kinds_place ON places_open_kinds USING hash (fsq_place_id);
ANALYZE places_open_kinds;
