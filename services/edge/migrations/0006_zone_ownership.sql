-- Zone ownership across accounts (issue 15). A zone whose name is a subdomain or a parent domain of another
-- account's active zone is created 'pending' with a verification key, and takes no traffic until that
-- account confirms it with a TXT record `cloudflare-verify.<zone name>` = the key in its zone
-- (edge_dns_records) and an activation check passes.
ALTER TABLE edge_zones ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active'));
ALTER TABLE edge_zones ADD COLUMN verification_key text;

-- Zones that already sit under or over an older zone of another account lose their traffic until verified.
UPDATE edge_zones z
   SET status = 'pending', verification_key = md5(random()::text || z.id)
 WHERE EXISTS (
   SELECT 1 FROM edge_zones o
    WHERE o.account_id <> z.account_id
      AND o.created_on < z.created_on
      AND (z.name LIKE '%.' || o.name OR o.name LIKE '%.' || z.name));

-- DNS records of a zone. Cairn keeps TXT records only: what ownership verification reads.
CREATE TABLE edge_dns_records (
  id char(32) PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type = 'TXT'),
  name text NOT NULL,
  content text NOT NULL,
  ttl integer NOT NULL,
  created_on timestamptz NOT NULL,
  modified_on timestamptz NOT NULL
);
CREATE INDEX edge_dns_records_name ON edge_dns_records (zone_id, name);
