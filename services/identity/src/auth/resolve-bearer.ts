import {
  type AuthContext,
  bearerUnauthorized,
  type Clock,
  type Db,
  hashToken,
  type TokenKind,
  tokenKindOf,
} from '@cairn/kit';
import { findAccessTokenByHash } from '../store/access-tokens.ts';
import { findServiceKeyByHash } from '../store/service-keys.ts';
import { onRevoked } from './revocations.ts';

/**
 * Bearer credential → auth context, the one function every service uses. Lookups are cached per process
 * for `ttlMs` (revocations reach other processes through NOTIFY at once, and within ttlMs at worst).
 */
export interface BearerResolver {
  resolve(token: string): Promise<AuthContext>;
  /** Drops cached entries (hashes) or everything ('*'). */
  forget(hashes: readonly string[] | '*'): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

type Outcome = { ok: true; auth: AuthContext } | { ok: false; message: string };

const INVALID = 'Invalid request token.';
const MAX_ENTRIES = 50_000;

const ACCEPTED_KINDS = new Set<TokenKind>(['serviceKey', 'managedUser', 'accessToken']);

export function createBearerResolver(db: Db, clock: Clock, options: { ttlMs: number }): BearerResolver {
  const cache = new Map<string, { outcome: Outcome; expiresAt: number }>();
  let stopListening: (() => Promise<void>) | undefined;

  async function lookup(kind: TokenKind, hash: string): Promise<Outcome> {
    if (kind === 'serviceKey') {
      const key = await findServiceKeyByHash(db, hash);
      if (!key) return { ok: false, message: INVALID };
      if (key.revokedAt) return { ok: false, message: `${INVALID} This service key has been revoked.` };
      const auth: AuthContext = {
        kind: 'service_key',
        organizationId: key.organizationId,
        credentialId: key.id,
      };
      if (key.appId) auth.appId = key.appId;
      return { ok: true, auth };
    }
    const token = await findAccessTokenByHash(db, hash);
    if (!token) return { ok: false, message: INVALID };
    if (token.revokedAt) return { ok: false, message: `${INVALID} This access token has been revoked.` };
    const auth: AuthContext = {
      kind: token.kind,
      organizationId: token.organizationId,
      userId: token.userId,
      credentialId: token.id,
    };
    if (token.appId) auth.appId = token.appId;
    return { ok: true, auth };
  }

  function forget(hashes: readonly string[] | '*') {
    if (hashes === '*') cache.clear();
    else for (const h of hashes) cache.delete(h);
  }

  return {
    async resolve(token) {
      const kind = tokenKindOf(token);
      if (!kind || !ACCEPTED_KINDS.has(kind)) throw bearerUnauthorized(INVALID, 'invalid_token');
      const hash = hashToken(token);
      const now = clock.nowMs();
      let entry = cache.get(hash);
      if (!entry || entry.expiresAt <= now) {
        entry = { outcome: await lookup(kind, hash), expiresAt: now + options.ttlMs };
        if (options.ttlMs > 0) {
          if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
          cache.set(hash, entry);
        }
      }
      if (!entry.outcome.ok) throw bearerUnauthorized(entry.outcome.message, 'invalid_token');
      return entry.outcome.auth;
    },
    forget,
    async start() {
      stopListening ??= await onRevoked(db, forget);
    },
    async stop() {
      await stopListening?.();
      stopListening = undefined;
    },
  };
}
