-- Security Events at volume: the events stored as rows are a sample once a zone's rate is high (each row
-- says how many requests it stands for), while every event is counted here, per minute, exactly.

-- How many requests each stored event stands for (1: every one of them was stored).
ALTER TABLE edge_security_events ADD COLUMN sample_interval real NOT NULL DEFAULT 1;

-- Every event counted, whether its row was kept or not: per zone, minute, action and rule (not its
-- description, which can be long: a group by description reads the sampled rows). The columns have the
-- events table's names and meanings (occurred_at is the minute's start), so analytics reads either
-- table with the same SQL; '' stands for a missing waf, phase or ruleset id (a unique key needs values).
CREATE TABLE edge_security_event_counts (
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL,
  action text NOT NULL,
  source text NOT NULL,
  waf text NOT NULL,
  phase text NOT NULL,
  ruleset_id text NOT NULL,
  rule_id text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (zone_id, occurred_at, action, source, waf, phase, ruleset_id, rule_id)
);
CREATE INDEX edge_security_event_counts_time ON edge_security_event_counts (occurred_at);

-- Jobs that must run once across every process sharing the database (the events' retention): when each
-- last ran, read and written under an advisory lock.
CREATE TABLE edge_jobs (
  name text PRIMARY KEY,
  last_run timestamptz NOT NULL
);
