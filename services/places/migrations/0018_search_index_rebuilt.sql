-- The search index again, over open_hours with its category-and-slot tokens (0017), as 0016 made it.
CREATE INDEX IF NOT EXISTS places_pt_text_gist ON places
  USING gist (pt, search_text gist_trgm_ops (siglen = 256), array_to_tsvector(fsq_category_ids || open_hours));
