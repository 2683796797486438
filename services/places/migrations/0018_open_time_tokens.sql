-- Half-hour and day tokens in open_hours ("open_0000" … "open_2330", "open_mon" … "open_sun"; data/open-hours.ts)
-- in place of the 3-hour slot tokens of 0013 ("open_s0" … "open_s7"): the UTC half hours of the day and days of
-- the week in which a place is open at some minute, under its zone's offset in mid-January and in mid-July of
-- this year. `open_now` asks the search index for the current half hour and day (and, with categories, for the
-- category-and-slot tokens of 0017, which stay as they are): at 05:15 UTC on a Sunday, 556 restaurants of New
-- York City's 22 km circle and 290 of Kolkata's were open at some minute of the slot, and 6 and none of them
-- then; the others were rows read and found closed (1M places, 29 November).
--
-- Computed from open_week (local minutes of the week) as openTokens does; a zone PostgreSQL does not know counts
-- as UTC, as it does there. Every row with hours is rewritten, so the index is dropped first and built again at
-- the end; as after 0017, run `REINDEX INDEX CONCURRENTLY places_pt_text_gist` after this migration on a
-- database with places (docs/operations.md, upgrades).
DROP INDEX IF EXISTS places_pt_text_gist;

-- The offsets of each zone written (minutes east of UTC; '' for none), looked up once per zone, not per row.
CREATE TEMP TABLE zone_offsets ON COMMIT DROP AS
SELECT z.zone, array_agg(DISTINCT (extract(epoch FROM (t.at AT TIME ZONE coalesce(n.name, 'UTC'))
                                           - (t.at AT TIME ZONE 'UTC')) / 60)::int) AS minutes
  FROM (SELECT DISTINCT coalesce(time_zone, '') AS zone FROM places WHERE cardinality(open_hours) > 0) AS z
  LEFT JOIN pg_timezone_names AS n ON n.name = z.zone
 CROSS JOIN unnest(ARRAY[make_timestamptz(extract(year FROM now())::int, 1, 15, 12, 0, 0, 'UTC'),
                         make_timestamptz(extract(year FROM now())::int, 7, 15, 12, 0, 0, 'UTC')]) AS t(at)
 GROUP BY z.zone;

UPDATE places p
   SET open_hours = coalesce((
         SELECT array_agg(h.token ORDER BY h.kind, h.unit)
           FROM (SELECT DISTINCT u.kind, u.unit,
                        CASE u.kind
                          WHEN 1 THEN 'open_' || lpad((u.unit / 2)::text, 2, '0')
                                      || CASE u.unit % 2 WHEN 1 THEN '30' ELSE '00' END
                          ELSE (ARRAY['open_mon', 'open_tue', 'open_wed', 'open_thu', 'open_fri', 'open_sat',
                                      'open_sun'])[u.unit + 1]
                        END AS token
                   FROM unnest(p.open_week) AS r(open)
                  CROSS JOIN unnest(z.minutes) AS o(minutes)
                  -- kind 1: half hours of the day (30 minutes, 48 a day); kind 2: days of the week (1440, 7)
                  CROSS JOIN (VALUES (1, 30, 48), (2, 1440, 7)) AS g(kind, minutes, period)
                  CROSS JOIN LATERAL generate_series(floor((lower(r.open) - o.minutes) / g.minutes::numeric)::int,
                                                     floor((upper(r.open) - 1 - o.minutes) / g.minutes::numeric)::int) AS k
                  CROSS JOIN LATERAL (SELECT g.kind, ((k % g.period) + g.period) % g.period AS unit) AS u
                ) AS h), '{}')
       || array(SELECT t FROM unnest(p.open_hours) AS t WHERE t NOT LIKE 'open\_%')
  FROM zone_offsets AS z
 WHERE z.zone = coalesce(p.time_zone, '')
   AND cardinality(p.open_hours) > 0;

CREATE INDEX places_pt_text_gist ON places
  USING gist (pt, search_text gist_trgm_ops (siglen = 256), array_to_tsvector(fsq_category_ids || open_hours));
