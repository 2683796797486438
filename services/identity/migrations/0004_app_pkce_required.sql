-- Per-app PKCE requirement (as node-oidc-provider's pkce.required): off by default, since the seed's flow
-- has no PKCE; an app that turns it on gets codes only for requests with an S256 code_challenge.
ALTER TABLE apps ADD COLUMN pkce_required boolean NOT NULL DEFAULT false;
