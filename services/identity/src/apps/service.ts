import { randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, generateToken, hashToken, newId, notFound, tokenHint, tokenKindOf } from '@cairn/kit';
import { announceRevoked } from '../auth/revocations.ts';
import type { IdentityDeps } from '../deps.ts';
import {
  type AppRecord,
  findAppByClientId,
  insertApp,
  listApps,
  markAppRevoked,
  updateAppPkceRequired,
} from '../store/apps.ts';
import { checkEmbedOrigin, checkRedirectUri } from './redirect-uris.ts';

export type App = AppRecord;

const CLIENT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 48 upper-case letters and digits, like the real service's client ids. */
function newClientId(): string {
  const bytes = randomBytes(48);
  return Array.from(bytes, (b) => CLIENT_ID_ALPHABET[b % CLIENT_ID_ALPHABET.length]).join('');
}

export interface NewApp {
  organizationId: string;
  name: string;
  redirectUris: string[];
  firstParty?: boolean;
  embedOrigins?: string[];
  /** Require PKCE (S256) for this app's authorization requests; off by default, as the seed's flow has none. */
  pkceRequired?: boolean;
  /** Given values instead of generated ones (fixtures): 48 of A–Z and 0–9, and "cs_" + 43 base64url. */
  clientId?: string;
  clientSecret?: string;
}

const CLIENT_ID = /^[A-Z0-9]{48}$/;

/** Registers an application; the client secret is returned this once (only its hash is stored). */
export async function registerApp(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  input: NewApp,
): Promise<{ app: App; clientSecret: string }> {
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw badRequest('App name must be 1 to 100 characters');
  if (input.redirectUris.length === 0) throw badRequest('Register at least one redirect URI');
  if (input.redirectUris.length > 20) throw badRequest('Register at most 20 redirect URIs');
  const redirectUris = [...new Set(input.redirectUris.map(checkRedirectUri))];
  const embedOrigins = [...new Set((input.embedOrigins ?? []).map(checkEmbedOrigin))];
  if (input.clientId !== undefined && !CLIENT_ID.test(input.clientId))
    throw badRequest('A client id is 48 upper-case letters and digits', { parameter: 'client_id' });
  if (input.clientSecret !== undefined && tokenKindOf(input.clientSecret) !== 'clientSecret')
    throw badRequest('A client secret is "cs_" followed by 43 base64url characters', {
      parameter: 'client_secret',
    });
  const clientSecret = input.clientSecret ?? generateToken('clientSecret');
  const app: App = {
    id: newId(),
    organizationId: input.organizationId,
    name,
    clientId: input.clientId ?? newClientId(),
    secretHint: tokenHint(clientSecret),
    redirectUris,
    embedOrigins,
    firstParty: input.firstParty ?? false,
    pkceRequired: input.pkceRequired ?? false,
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  await insertApp(deps.db, app, hashToken(clientSecret));
  return { app, clientSecret };
}

/** The app whose client_id and secret these are, or undefined (constant-time comparison of hashes). */
export async function authenticateClient(
  deps: Pick<IdentityDeps, 'db'>,
  clientId: string,
  clientSecret: string,
): Promise<App | undefined> {
  const found = await findAppByClientId(deps.db, clientId);
  const given = Buffer.from(hashToken(clientSecret));
  const expected = Buffer.from(found?.secretHash ?? hashToken('no such client'));
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return found && same ? found.app : undefined;
}

export async function findLiveApp(
  deps: Pick<IdentityDeps, 'db'>,
  clientId: string,
): Promise<App | undefined> {
  return (await findAppByClientId(deps.db, clientId))?.app;
}

export function listOrganizationApps(
  deps: Pick<IdentityDeps, 'db'>,
  organizationId?: string,
): Promise<App[]> {
  return listApps(deps.db, organizationId);
}

/** Turns the app's PKCE requirement on or off; codes issued without a challenge are refused once it is on. */
export async function setPkceRequired(
  deps: Pick<IdentityDeps, 'db'>,
  appId: string,
  organizationId: string,
  required: boolean,
): Promise<void> {
  if (
    !/^[0-9a-f-]{36}$/.test(appId) ||
    !(await updateAppPkceRequired(deps.db, appId, organizationId, required))
  ) {
    throw notFound(`No live app with id ${appId} in this organization`);
  }
}

/** Revokes an app: its client credentials stop working and every token it holds is revoked. */
export async function revokeApp(deps: IdentityDeps, appId: string, organizationId?: string): Promise<void> {
  const hashes = await deps.db.transaction(async (tx) => {
    if (!(await markAppRevoked(tx, appId, deps.clock.now(), organizationId))) {
      throw notFound(`No live app with id ${appId}`);
    }
    const { rows } = await tx.query<{ token_hash: string }>(
      `UPDATE access_tokens SET revoked_at = $2, revoked_reason = 'app revoked'
        WHERE app_id = $1 AND revoked_at IS NULL RETURNING token_hash`,
      [appId, deps.clock.now()],
    );
    const keys = await tx.query<{ token_hash: string }>(
      'UPDATE service_keys SET revoked_at = $2 WHERE app_id = $1 AND revoked_at IS NULL RETURNING token_hash',
      [appId, deps.clock.now()],
    );
    const all = [...rows, ...keys.rows].map((r) => r.token_hash);
    await announceRevoked(tx, all);
    return all;
  });
  deps.resolver.forget(hashes);
}
