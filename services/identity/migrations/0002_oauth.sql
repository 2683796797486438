-- People with accounts, organization membership, registered applications (OAuth clients), browser sessions,
-- consents, authorization codes, session tokens and sign-in throttling.

CREATE TABLE accounts (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  email text NOT NULL UNIQUE,            -- stored lower-cased
  display_name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE memberships (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id bigint NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);

CREATE TABLE apps (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  client_id text NOT NULL UNIQUE,
  client_secret_hash text NOT NULL,
  secret_hint text NOT NULL,
  redirect_uris jsonb NOT NULL,          -- array of exact strings
  embed_origins jsonb NOT NULL,          -- array of origins allowed to frame our pages for this app
  first_party boolean NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX apps_organization ON apps (organization_id);

ALTER TABLE service_keys ADD CONSTRAINT service_keys_app FOREIGN KEY (app_id) REFERENCES apps (id);

CREATE TABLE browser_sessions (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES users (id),
  app_id uuid REFERENCES apps (id),      -- set for sessions opened from a session token (the editing UI)
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE consents (
  user_id bigint NOT NULL REFERENCES users (id),
  app_id uuid NOT NULL REFERENCES apps (id),
  placemaker boolean NOT NULL,
  granted_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, app_id)
);

CREATE TABLE authorization_codes (
  id uuid PRIMARY KEY,
  code_hash text NOT NULL UNIQUE,
  app_id uuid NOT NULL REFERENCES apps (id),
  user_id bigint NOT NULL REFERENCES users (id),
  redirect_uri text NOT NULL,
  code_challenge text,
  placemaker boolean NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

-- The code an OAuth access token was issued from: a replayed code revokes what it produced (RFC 9700).
ALTER TABLE access_tokens ADD COLUMN authorization_code_id uuid REFERENCES authorization_codes (id);
ALTER TABLE access_tokens ADD COLUMN placemaker boolean NOT NULL DEFAULT false;
CREATE INDEX access_tokens_by_code ON access_tokens (authorization_code_id) WHERE authorization_code_id IS NOT NULL;
CREATE INDEX access_tokens_live_by_app_user ON access_tokens (app_id, user_id) WHERE revoked_at IS NULL;

CREATE TABLE session_tokens (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  access_token_id uuid NOT NULL REFERENCES access_tokens (id),
  user_id bigint NOT NULL REFERENCES users (id),
  app_id uuid NOT NULL REFERENCES apps (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  redeemed_at timestamptz
);

CREATE TABLE sign_in_failures (
  email text NOT NULL,
  ip text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX sign_in_failures_email ON sign_in_failures (email, at);
CREATE INDEX sign_in_failures_ip ON sign_in_failures (ip, at);
