-- What GraphQL Analytics tells of a security event's client besides its address: the country and AS
-- from the IP databases (read when the event is stored, as the real edge records them with the request)
-- and the Referer's host. '' where unknown, and for events stored before this migration.
ALTER TABLE edge_security_events
  ADD COLUMN client_country text NOT NULL DEFAULT '',
  ADD COLUMN client_asn text NOT NULL DEFAULT '',
  ADD COLUMN client_asn_description text NOT NULL DEFAULT '',
  ADD COLUMN referer_host text NOT NULL DEFAULT '';
