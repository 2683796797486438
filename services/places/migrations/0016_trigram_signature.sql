-- The search index's trigram signatures at 256 bytes (pg_trgm's default is 12). A signature is a bit set of the
-- trigrams below an index entry: at 12 bytes every inner entry, and the leaf entry of a long search text, has
-- nearly every bit set, so a walk for a word that few places around have cannot tell the pages without it from
-- the others and reads them all; at 256 bytes it skips them. Measured on a 10M copy (stop 29): "golden" around
-- Tokyo read 50 buffers; the 100 cities' query + ll searches, one connection, 212 ms in all against 256 (111
-- against 121 at 1M), for an index 8% larger (docs/operations.md).
DROP INDEX IF EXISTS places_pt_text_gist;

CREATE INDEX places_pt_text_gist ON places
  USING gist (pt, search_text gist_trgm_ops (siglen = 256), array_to_tsvector(fsq_category_ids || open_hours));
