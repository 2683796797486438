import type { App } from '../apps/service.ts';

/**
 * Whether PKCE is required for this app: the one policy function the authorization and token steps ask
 * (as node-oidc-provider's `pkce.required(ctx, client)`). Off by default, because the seed's flow has no
 * PKCE; an app turns it on at registration (console, `cairn apps create --require-pkce`) or in the console.
 * PKCE sent by any app is always checked (check-pkce.ts, token/authorization-code.ts).
 */
export function pkceRequired(app: App): boolean {
  return app.pkceRequired;
}

/** RFC 7636 §4.4.1: the error description when a required challenge is missing. */
export const pkceRequiredMessage = (app: App) =>
  `${app.name} requires PKCE: send code_challenge (the base64url SHA-256 of a code_verifier) with code_challenge_method=S256`;
