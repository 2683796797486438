-- open_now inside the search index: open_hours lists the 3-hour slots of the UTC day (tokens "open_s0" for
-- 00:00–03:00 … "open_s7" for 21:00–24:00) during which a place is open at some minute on some day, under its zone's offsets of mid-January and
-- mid-July (see src/data/open-hours.ts, which fills it on every write). The GiST index's tsvector holds them
-- beside the category ids, so `category + open_now + ll` passes over the places closed in this slot inside
-- the index instead of reading each row and finding it closed (at night, every restaurant of the circle).
ALTER TABLE places ADD COLUMN open_hours text[] NOT NULL DEFAULT '{}';

-- The index is dropped first: the rows below are rewritten, and each new version would be added to it.
DROP INDEX IF EXISTS places_pt_text_gist;

UPDATE places p
   SET open_hours = coalesce((
         SELECT array_agg(DISTINCT 'open_s' || (((k % 8) + 8) % 8))
           FROM unnest(p.open_week) AS r,
                (SELECT DISTINCT (extract(epoch FROM (t AT TIME ZONE coalesce(p.time_zone, 'UTC')) - (t AT TIME ZONE 'UTC')) / 60)::int AS minutes
                   FROM unnest(ARRAY[date_trunc('year', now()) + interval '14 days 12 hours',
                                     date_trunc('year', now()) + interval '6 months 14 days 12 hours']) AS t) AS o,
                generate_series(floor((lower(r) - o.minutes) / 180.0)::int, floor((upper(r) - 1 - o.minutes) / 180.0)::int) AS k
       ), '{}')
 WHERE open_week IS NOT NULL;

CREATE INDEX places_pt_text_gist ON places
  USING gist (pt, search_text gist_trgm_ops, array_to_tsvector(fsq_category_ids || open_hours));
