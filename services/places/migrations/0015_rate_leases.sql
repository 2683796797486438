-- The rate limit takes several tokens at a time (services/places/src/access/rate-limit-lease.ts): how many the
-- last call to the bucket got. `taken` stays for a host of the previous version during a rolling upgrade.
ALTER TABLE places_rate_buckets ADD COLUMN granted integer NOT NULL DEFAULT 0;
