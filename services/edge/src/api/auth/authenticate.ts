import { hashToken, tokenKindOf } from '@cairn/kit';
import type { FastifyRequest } from 'fastify';
import { DASHBOARD_COOKIE, DASHBOARD_CSRF_HEADER } from '../../dashboard/cookie.ts';
import { csrfMatches, dashboardSessionOf } from '../../dashboard/service.ts';
import type { EdgeDeps } from '../../deps.ts';
import { authenticationError, noSuchObject } from '../errors.ts';
import { isHexId } from '../ids.ts';
import type { Actor } from '../migration/store.ts';
import { findZone, type Zone } from '../zones/store.ts';
import { type Area, allows, type Grant, type Level, seesZone } from './permissions.ts';
import { findLiveTokenByHash } from './store.ts';

export interface EdgeAuth {
  /** The API token of the call, or of the dashboard session that made it; null for a person's session. */
  tokenId: string | null;
  accountId: string;
  grants: Grant[];
  /** Who the history of the WAF upgrade names. */
  actor: Actor;
}

/**
 * `Authorization: Bearer cet_…` → the token's account and grants; 401/10000 otherwise. Without the
 * header, the dashboard's session cookie counts when the call also carries the session's CSRF value in
 * X-Cairn-Dashboard (a header other sites cannot send), as the real dashboard calls the same API.
 */
export async function authenticate(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  request: FastifyRequest,
): Promise<EdgeAuth> {
  const header = request.headers.authorization;
  if ((header === undefined || header === '') && request.cookies?.[DASHBOARD_COOKIE] !== undefined) {
    return dashboardAuth(deps, request);
  }
  if (header === undefined || header === '') {
    if (request.headers['x-auth-key'] !== undefined) {
      throw authenticationError(
        401,
        'API keys (X-Auth-Key) are not supported; send Authorization: Bearer <API token>',
      );
    }
    throw authenticationError(401, 'missing Authorization header; send Authorization: Bearer <API token>');
  }
  const match = /^Bearer +([\x21-\x7e]+)\s*$/i.exec(header);
  if (!match) throw authenticationError(401, 'malformed Authorization header; expected "Bearer <API token>"');
  const token = match[1]!;
  if (tokenKindOf(token) !== 'edgeApiToken') {
    throw authenticationError(
      401,
      'this is not an edge API token (they start with cet_; create one with: cairn edge tokens create)',
    );
  }
  const record = await findLiveTokenByHash(deps.db, hashToken(token));
  if (!record) throw authenticationError(401, 'invalid or revoked API token');
  return {
    tokenId: record.id,
    accountId: record.accountId,
    grants: record.grants,
    actor: { type: 'api_token', id: record.id, name: record.name },
  };
}

async function dashboardAuth(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  request: FastifyRequest,
): Promise<EdgeAuth> {
  const session = await dashboardSessionOf(deps, request.cookies[DASHBOARD_COOKIE]);
  if (!session) throw authenticationError(401, 'your dashboard session has ended; sign in again');
  if (!csrfMatches(session, request.headers[DASHBOARD_CSRF_HEADER])) {
    throw authenticationError(
      403,
      `a dashboard session is used only by the dashboard (the ${DASHBOARD_CSRF_HEADER} header is missing or wrong)`,
    );
  }
  return {
    tokenId: session.tokenId,
    accountId: session.accountId,
    grants: session.grants,
    actor: session.actor,
  };
}

/**
 * The zone of a path, if the token may act on it. A token that covers every zone of its account (`*`)
 * learns that a zone does not exist (404); any other token gets 403 for zones it cannot see.
 */
export async function zoneFor(
  deps: Pick<EdgeDeps, 'db'>,
  auth: EdgeAuth,
  zoneId: string,
  area: Area,
  level: Level,
  path: string,
): Promise<Zone> {
  if (!isHexId(zoneId))
    throw noSuchObject(path, `"${zoneId}" is not a zone id (32 lowercase hex characters)`, 400);
  const zone = await findZone(deps.db, zoneId);
  const visible = zone !== undefined && zone.accountId === auth.accountId && seesZone(auth.grants, zone.id);
  if (!visible || !zone) {
    if (auth.grants.some((g) => g.zoneId === '*'))
      throw noSuchObject(path, `No zone ${zoneId} in your account`);
    throw authenticationError(403, `this API token has no access to zone ${zoneId}`);
  }
  if (area === 'zone' && level === 'read') return zone;
  if (!allows(auth.grants, zone.id, area, level)) {
    throw authenticationError(
      403,
      `this API token lacks the permission ${area}:${level} on zone ${zone.name}`,
    );
  }
  return zone;
}
