-- The edge data plane: each zone's origin, the security events it records, and a notification on every
-- write that changes what the data plane does for a zone (its compiled plan is cached per process).

-- Where the proxy sends a zone's traffic: an http(s) URL without a path (NULL: not proxied yet).
ALTER TABLE edge_zones ADD COLUMN origin text;

-- Security events: blocked, challenged, logged (sampled) and skipped requests, newest first.
CREATE TABLE edge_security_events (
  id bigserial PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL,
  ray_id text NOT NULL,
  action text NOT NULL,
  source text NOT NULL,
  waf text,
  phase text,
  ruleset_id text,
  rule_id text NOT NULL,
  description text NOT NULL,
  client_ip text NOT NULL,
  method text NOT NULL,
  host text NOT NULL,
  path text NOT NULL,
  query text NOT NULL,
  user_agent text NOT NULL,
  http_protocol text NOT NULL,
  matched_data jsonb NOT NULL
);
CREATE INDEX edge_security_events_zone_time ON edge_security_events (zone_id, occurred_at DESC, id DESC);
CREATE INDEX edge_security_events_time ON edge_security_events (occurred_at);

-- pg_notify('cairn_edge_config', <zone id>) after any change of a zone's WAF, rulesets, firewall rules,
-- filters, page rules, settings or the zone row itself. PostgreSQL delivers it at commit, once per
-- transaction and payload, to every process listening (each drops that zone's cached plan).
CREATE FUNCTION edge_config_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF TG_TABLE_NAME = 'edge_zones' THEN
    zone := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  ELSE
    zone := CASE WHEN TG_OP = 'DELETE' THEN OLD.zone_id ELSE NEW.zone_id END;
  END IF;
  PERFORM pg_notify('cairn_edge_config', zone);
  RETURN NULL;
END;
$$;

CREATE TRIGGER edge_zones_changed AFTER INSERT OR UPDATE OR DELETE ON edge_zones
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_zone_settings_changed AFTER INSERT OR UPDATE OR DELETE ON edge_zone_settings
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_waf_packages_changed AFTER INSERT OR UPDATE OR DELETE ON edge_waf_packages
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_waf_group_modes_changed AFTER INSERT OR UPDATE OR DELETE ON edge_waf_group_modes
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_waf_rule_modes_changed AFTER INSERT OR UPDATE OR DELETE ON edge_waf_rule_modes
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_waf_overrides_changed AFTER INSERT OR UPDATE OR DELETE ON edge_waf_overrides
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_filters_changed AFTER INSERT OR UPDATE OR DELETE ON edge_filters
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_firewall_rules_changed AFTER INSERT OR UPDATE OR DELETE ON edge_firewall_rules
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_page_rules_changed AFTER INSERT OR UPDATE OR DELETE ON edge_page_rules
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
CREATE TRIGGER edge_rulesets_changed AFTER INSERT OR UPDATE OR DELETE ON edge_rulesets
  FOR EACH ROW EXECUTE FUNCTION edge_config_changed();
