-- Category-and-slot tokens in open_hours ("<category digest>@s3", data/open-hours.ts; the digest is the first 8 hex
-- digits of the MD5 of the category id): for each slot a place is open in, one per category of its own and per
-- ancestor of those (places_categories' level ids, the category's path from the top, itself included). `category + open_now` asks the search index for the categories it names in
-- the current slot, one token each, instead of the category's descendants (~200 for Restaurant) and the slot
-- separately, which any subtree holding some restaurant and some place open matched: at night, every page of a
-- city's circle was read to find the few restaurants open (10M places: 10–14 ms in London, 0 results).
-- Measured on 1M generated places (PostgreSQL 15, 100 cities at 9 hours of the day, one connection): PostgreSQL
-- CPU of (c) 1.69 s against 0.42–0.48 s.
--
-- Every row is rewritten, so the index is dropped first and built again at the end. Migrations run in one
-- transaction, and an index built in the transaction that updated the rows also holds each row's old version
-- (RECENTLY_DEAD to it): on a database with places, run `REINDEX INDEX CONCURRENTLY places_pt_text_gist`
-- after this migration (docs/operations.md, upgrades) to halve the index again. A new database has no rows.
DROP INDEX IF EXISTS places_pt_text_gist;

UPDATE places p
   SET open_hours = p.open_hours || coalesce((
         SELECT array_agg(DISTINCT left(md5(k.kind), 8) || '@' || substr(s.slot, length('open_') + 1))
           FROM (SELECT DISTINCT a.kind
                   FROM unnest(p.fsq_category_ids) AS c(id)
                   LEFT JOIN places_categories pc ON pc.category_id = c.id
                  CROSS JOIN LATERAL unnest(ARRAY[c.id, pc.level1_category_id, pc.level2_category_id,
                                                  pc.level3_category_id, pc.level4_category_id,
                                                  pc.level5_category_id, pc.level6_category_id]) AS a(kind)
                  WHERE a.kind IS NOT NULL) AS k,
                unnest(p.open_hours) AS s(slot)
          WHERE s.slot LIKE 'open\_s_'), '{}')
 WHERE cardinality(p.open_hours) > 0;

CREATE INDEX places_pt_text_gist ON places
  USING gist (pt, search_text gist_trgm_ops (siglen = 256), array_to_tsvector(fsq_category_ids || open_hours));
