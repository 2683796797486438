import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  dummyHash,
  generateToken,
  hashPassword,
  hashToken,
  SignInThrottle,
  tokenKindOf,
  verifyPassword,
} from '@cairn/kit';
import { AREAS, type Grant } from '../api/auth/permissions.ts';
import { findLiveTokenByHash, grantsOfToken } from '../api/auth/store.ts';
import { authenticationError, invalidBody } from '../api/errors.ts';
import { newHexId } from '../api/ids.ts';
import type { Actor } from '../api/migration/store.ts';
import type { EdgeDeps } from '../deps.ts';
import {
  type DashboardUser,
  deleteExpiredSessions,
  deleteSession,
  findLiveSession,
  findUserByEmail,
  insertSession,
  insertUser,
  updatePasswordHash,
} from './store.ts';

export const SESSION_HOURS = 12;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
/** This many failed sign-ins in the window lock an email (or a client address) until the window has passed. */
export const THROTTLE = { windowMs: 15 * 60_000, perEmail: 5, perIp: 50 };
const throttle = new SignInThrottle('edge_dashboard_sign_in_failures', THROTTLE);

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
const SESSION_COOKIE_VALUE = /^bs_[A-Za-z0-9_-]{43}$/;

/** Who is signed in to the dashboard, with what they may do: a person has every permission on the account. */
export interface DashboardSession {
  accountId: string;
  actor: Actor;
  tokenId: string | null;
  grants: Grant[];
  csrf: string;
  expiresAt: Date;
}

const everyPermission = (): Grant[] => AREAS.map((a) => ({ zoneId: '*', permission: `${a}:edit` }));

/** A person who signs in to the dashboard with an email and a password; a member of one account. */
export async function createDashboardUser(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  input: { accountId: string; email: string; name?: string; password: string },
): Promise<DashboardUser> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalidBody('/email', `'${input.email}' is not an email address`);
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX) {
    throw invalidBody('/password', `choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
  if (await findUserByEmail(deps.db, email))
    throw invalidBody('/email', `${email} already has a dashboard login`);
  const user: DashboardUser = {
    id: newHexId(),
    accountId: input.accountId,
    email,
    name: input.name?.trim() || email,
    createdAt: deps.clock.now(),
  };
  await insertUser(deps.db, user, await hashPassword(input.password));
  return user;
}

/** Sets a new password; every session opened with the old one ends. */
export async function resetDashboardPassword(
  deps: Pick<EdgeDeps, 'db'>,
  input: { email: string; password: string },
): Promise<DashboardUser> {
  const email = input.email.trim().toLowerCase();
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX) {
    throw invalidBody('/password', `choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw invalidBody('/email', `${email} has no dashboard login`);
  await deps.db.transaction((tx) =>
    hashPassword(input.password).then((h) => updatePasswordHash(tx, user.id, h)),
  );
  const { passwordHash: _hash, ...rest } = user;
  return rest;
}

async function openSession(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  who: { accountId: string; userId: string | null; tokenId: string | null },
): Promise<string> {
  const cookie = generateToken('browserSession');
  const now = deps.clock.now();
  await deleteExpiredSessions(deps.db, now);
  await insertSession(deps.db, hashToken(cookie), {
    ...who,
    csrf: randomBytes(32).toString('base64url'),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_HOURS * 3_600_000),
  });
  return cookie;
}

/** Signs a person in; 401 with one message for a wrong email or password (the same time for both). */
export async function signInWithPassword(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  input: { email: string; password: string; ip: string },
): Promise<string> {
  const email = input.email.trim().toLowerCase();
  await throttle.check(deps.db, deps.clock, email, input.ip);
  const user = await findUserByEmail(deps.db, email);
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyPassword(await dummyHash(), input.password).then(() => false);
  if (!user || !ok) {
    await throttle.recordFailure(deps.db, deps.clock, email, input.ip);
    throw authenticationError(401, 'Wrong email or password');
  }
  await throttle.clear(deps.db, email);
  return openSession(deps, { accountId: user.accountId, userId: user.id, tokenId: null });
}

/** Signs in with an API token: the dashboard then does what the token may do, until it is revoked. */
export async function signInWithToken(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  input: { token: string; ip: string },
): Promise<string> {
  await throttle.check(deps.db, deps.clock, null, input.ip);
  const token = input.token.trim();
  const record =
    tokenKindOf(token) === 'edgeApiToken' ? await findLiveTokenByHash(deps.db, hashToken(token)) : undefined;
  if (!record) {
    await throttle.recordFailure(deps.db, deps.clock, null, input.ip);
    throw authenticationError(
      401,
      tokenKindOf(token) === 'edgeApiToken'
        ? 'Invalid or revoked API token'
        : 'This is not an edge API token (they start with cet_; create one with: cairn edge tokens create)',
    );
  }
  return openSession(deps, { accountId: record.accountId, userId: null, tokenId: record.id });
}

/** The live session of a cookie, with the grants of its person or (re-read, so revocation counts) its token. */
export async function dashboardSessionOf(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  cookie: string | undefined,
): Promise<DashboardSession | undefined> {
  if (!cookie || !SESSION_COOKIE_VALUE.test(cookie)) return undefined;
  const row = await findLiveSession(deps.db, hashToken(cookie), deps.clock.now());
  if (!row) return undefined;
  let grants = everyPermission();
  if (row.tokenId) {
    grants = await grantsOfToken(deps.db, row.tokenId);
  }
  return {
    accountId: row.accountId,
    actor: row.userId
      ? { type: 'user', id: row.userId, name: row.actorName }
      : { type: 'api_token', id: row.tokenId, name: row.actorName },
    tokenId: row.tokenId,
    grants,
    csrf: row.csrf,
    expiresAt: row.expiresAt,
  };
}

/** Whether a call carries the session's CSRF value (the X-Cairn-Dashboard header), compared in constant time. */
export function csrfMatches(session: DashboardSession, sent: string | string[] | undefined): boolean {
  const a = Buffer.from(typeof sent === 'string' ? sent : '');
  const b = Buffer.from(session.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function signOut(deps: Pick<EdgeDeps, 'db'>, cookie: string | undefined): Promise<void> {
  if (cookie && SESSION_COOKIE_VALUE.test(cookie)) await deleteSession(deps.db, hashToken(cookie));
}
