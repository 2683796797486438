-- The edge API v4. Ids are 32 lowercase hex characters (Cloudflare's shape); tokens are stored as SHA-256.
CREATE TABLE edge_accounts (
  id char(32) PRIMARY KEY,
  name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);

-- waf_migration_state: 'default' (never had the previous WAF: Free zones), 'start' (previous WAF, not
-- upgraded), 'validation' (both running, Enterprise), 'complete' (upgraded; irreversible).
CREATE TABLE edge_zones (
  id char(32) PRIMARY KEY,
  account_id char(32) NOT NULL REFERENCES edge_accounts (id),
  name text NOT NULL UNIQUE,
  plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  paused boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL,
  modified_on timestamptz NOT NULL,
  waf_migration_state text NOT NULL CHECK (waf_migration_state IN ('default', 'start', 'validation', 'complete')),
  waf_migration_changed_at timestamptz NOT NULL
);
CREATE INDEX edge_zones_account ON edge_zones (account_id);

CREATE TABLE edge_zone_settings (
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  setting_id text NOT NULL,
  value jsonb NOT NULL,
  modified_on timestamptz NOT NULL,
  PRIMARY KEY (zone_id, setting_id)
);

-- An API token; its grants say which permission it has on which zone ('*' = every zone of the account).
CREATE TABLE edge_api_tokens (
  id char(32) PRIMARY KEY,
  account_id char(32) NOT NULL REFERENCES edge_accounts (id),
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  hint text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE edge_api_token_grants (
  token_id char(32) NOT NULL REFERENCES edge_api_tokens (id) ON DELETE CASCADE,
  zone_id text NOT NULL,
  permission text NOT NULL,
  PRIMARY KEY (token_id, zone_id, permission)
);

-- The previous WAF: only what differs from the catalogue's defaults is stored.
CREATE TABLE edge_waf_packages (
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  package_id char(32) NOT NULL,
  sensitivity text NOT NULL,
  action_mode text NOT NULL,
  PRIMARY KEY (zone_id, package_id)
);

CREATE TABLE edge_waf_group_modes (
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  package_id char(32) NOT NULL,
  group_id char(32) NOT NULL,
  mode text NOT NULL,
  PRIMARY KEY (zone_id, package_id, group_id)
);

CREATE TABLE edge_waf_rule_modes (
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  package_id char(32) NOT NULL,
  rule_id text NOT NULL,
  mode text NOT NULL,
  PRIMARY KEY (zone_id, package_id, rule_id)
);

CREATE TABLE edge_waf_overrides (
  id char(32) PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  description text,
  urls jsonb NOT NULL,
  priority integer NOT NULL,
  paused boolean NOT NULL,
  groups jsonb NOT NULL,
  rules jsonb NOT NULL,
  rewrite_action jsonb NOT NULL,
  created_on timestamptz NOT NULL,
  modified_on timestamptz NOT NULL
);
CREATE INDEX edge_waf_overrides_zone ON edge_waf_overrides (zone_id);

CREATE TABLE edge_filters (
  id char(32) PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  expression text NOT NULL,
  paused boolean NOT NULL,
  description text NOT NULL,
  ref text NOT NULL,
  created_on timestamptz NOT NULL,
  modified_on timestamptz NOT NULL
);
CREATE INDEX edge_filters_zone ON edge_filters (zone_id);

CREATE TABLE edge_firewall_rules (
  id char(32) PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  filter_id char(32) NOT NULL REFERENCES edge_filters (id),
  action text NOT NULL,
  products jsonb NOT NULL,
  priority bigint,
  paused boolean NOT NULL,
  description text NOT NULL,
  ref text NOT NULL,
  created_on timestamptz NOT NULL,
  modified_on timestamptz NOT NULL
);
CREATE INDEX edge_firewall_rules_zone ON edge_firewall_rules (zone_id);

CREATE TABLE edge_page_rules (
  id char(32) PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  targets jsonb NOT NULL,
  actions jsonb NOT NULL,
  priority integer NOT NULL,
  status text NOT NULL,
  created_on timestamptz NOT NULL,
  modified_on timestamptz NOT NULL
);
CREATE INDEX edge_page_rules_zone ON edge_page_rules (zone_id);

-- Zone rulesets: the header holds the latest version; every version is a snapshot with its rules.
CREATE TABLE edge_rulesets (
  id char(32) PRIMARY KEY,
  zone_id char(32) NOT NULL REFERENCES edge_zones (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL,
  kind text NOT NULL,
  phase text NOT NULL,
  version integer NOT NULL,
  last_updated timestamptz NOT NULL
);
-- One entry point per zone and phase.
CREATE UNIQUE INDEX edge_rulesets_entrypoint ON edge_rulesets (zone_id, phase) WHERE kind = 'zone';

CREATE TABLE edge_ruleset_versions (
  ruleset_id char(32) NOT NULL REFERENCES edge_rulesets (id) ON DELETE CASCADE,
  version integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  last_updated timestamptz NOT NULL,
  rules jsonb NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  PRIMARY KEY (ruleset_id, version)
);
