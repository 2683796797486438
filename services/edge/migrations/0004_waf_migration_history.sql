-- The WAF upgrade (issue 8): every change of a zone's waf_migration_state, and every configuration
-- written in validation mode, with who did it and when. Rows are only ever added.
CREATE TABLE edge_waf_migration_events (
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  from_state text NOT NULL CHECK (from_state IN ('default', 'start', 'validation', 'complete')),
  to_state text NOT NULL CHECK (to_state IN ('default', 'start', 'validation', 'complete')),
  -- 'pending' or 'validation' for the entry-point PUT; 'plan' when a plan change moved the zone.
  cause text NOT NULL,
  phase_two boolean NOT NULL,
  actor_type text NOT NULL CHECK (actor_type IN ('api_token', 'user', 'system')),
  actor_id text,
  actor_name text NOT NULL,
  ruleset_id char(32),
  ruleset_version integer,
  at timestamptz NOT NULL,
  PRIMARY KEY (zone_id, seq)
);

-- Every change of waf_migration_state is recorded by the database itself, whatever code path made it:
-- the upgrade sets `cairn.waf_migration` (JSON: cause, phase_two, actor, ruleset) for its transaction
-- with set_config(…, true); any other change (a Free zone moved to a paid plan) is recorded as the
-- system's, with cause 'plan'.
CREATE FUNCTION edge_waf_migration_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  info jsonb := NULLIF(current_setting('cairn.waf_migration', true), '')::jsonb;
BEGIN
  INSERT INTO edge_waf_migration_events
    (zone_id, seq, from_state, to_state, cause, phase_two, actor_type, actor_id, actor_name, ruleset_id, ruleset_version, at)
  VALUES (
    NEW.id,
    (SELECT COALESCE(MAX(seq), 0) + 1 FROM edge_waf_migration_events WHERE zone_id = NEW.id),
    OLD.waf_migration_state,
    NEW.waf_migration_state,
    COALESCE(info ->> 'cause', CASE WHEN NEW.plan IS DISTINCT FROM OLD.plan THEN 'plan' ELSE 'system' END),
    COALESCE((info ->> 'phase_two')::boolean, false),
    COALESCE(info ->> 'actor_type', 'system'),
    info ->> 'actor_id',
    COALESCE(info ->> 'actor_name', CASE WHEN NEW.plan IS DISTINCT FROM OLD.plan
      THEN 'plan change from ' || OLD.plan || ' to ' || NEW.plan ELSE 'Cairn' END),
    info ->> 'ruleset_id',
    (info ->> 'ruleset_version')::integer,
    NEW.waf_migration_changed_at
  );
  RETURN NULL;
END;
$$;

CREATE TRIGGER edge_zones_waf_migration_recorded AFTER UPDATE OF waf_migration_state ON edge_zones
  FOR EACH ROW WHEN (OLD.waf_migration_state IS DISTINCT FROM NEW.waf_migration_state)
  EXECUTE FUNCTION edge_waf_migration_recorded();
