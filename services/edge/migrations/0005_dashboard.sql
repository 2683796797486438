-- The dashboard: people who sign in with an email and a password (members of one account, with every
-- permission on its zones), and sign-in sessions, opened by such a person or with an API token.
CREATE TABLE edge_dashboard_users (
  id char(32) PRIMARY KEY,
  account_id char(32) NOT NULL REFERENCES edge_accounts (id),
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL
);

-- A session is kept as the SHA-256 of its cookie; csrf is sent back by the app in a header on every call.
-- Exactly one of user_id and token_id says who signed in; a revoked token ends its sessions at once.
CREATE TABLE edge_dashboard_sessions (
  session_hash text PRIMARY KEY,
  account_id char(32) NOT NULL REFERENCES edge_accounts (id),
  user_id char(32) REFERENCES edge_dashboard_users (id) ON DELETE CASCADE,
  token_id char(32) REFERENCES edge_api_tokens (id) ON DELETE CASCADE,
  csrf text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CHECK ((user_id IS NULL) <> (token_id IS NULL))
);
CREATE INDEX edge_dashboard_sessions_expiry ON edge_dashboard_sessions (expires_at);

-- Failed sign-ins, to throttle guessing: per email and per client address.
CREATE TABLE edge_dashboard_sign_in_failures (
  email text,
  ip text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX edge_dashboard_sign_in_failures_email ON edge_dashboard_sign_in_failures (email, at);
CREATE INDEX edge_dashboard_sign_in_failures_ip ON edge_dashboard_sign_in_failures (ip, at);
