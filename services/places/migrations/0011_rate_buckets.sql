-- The per-credential rate limit's token buckets, shared by every host on this database (services/places/src/
-- access/rate-limit-postgres.ts). UNLOGGED: a bucket is worth nothing after a crash (it is emptied then, which
-- gives every credential a full bucket), and a write to it does not wait for the WAL to reach the disk.
CREATE UNLOGGED TABLE places_rate_buckets (
  credential_id text PRIMARY KEY,
  tokens double precision NOT NULL,
  at_ms bigint NOT NULL,
  taken boolean NOT NULL
);
