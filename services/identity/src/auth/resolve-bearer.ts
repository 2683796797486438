import {
  type AuthContext,
  bearerTokenOf,
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
 * The cache is keyed by the Authorization header's usual form, `Bearer <token>`, so a request's hit costs one
 * Map lookup on the header as sent: the header is parsed, the token's form checked and its SHA-256 computed
 * only on a miss (bench/users-api.ts, instructions per request: the header's regex was a quarter of a hit).
 * Keys are bounded: a token is cached only after its form (prefix and 43 characters) is checked.
 * Revocations name hashes, so each entry keeps its token's hash for `forget`.
 */
export interface BearerResolver {
  /** Synchronous for a cached credential that is valid; never throws (ResolveBearer). */
  resolve(token: string): AuthContext | Promise<AuthContext>;
  /** The same from an Authorization header as sent (ResolveAuthorization). */
  resolveAuthorization(header: string | undefined): AuthContext | Promise<AuthContext>;
  /** Drops cached entries (hashes) or everything ('*'). */
  forget(hashes: readonly string[] | '*'): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

type Outcome = { ok: true; auth: AuthContext } | { ok: false; message: string };

const INVALID = 'Invalid request token.';
const MAX_ENTRIES = 50_000;

const ACCEPTED_KINDS = new Set<TokenKind>(['serviceKey', 'managedUser', 'accessToken']);

type Entry = { hash: string; outcome: Outcome; expiresAt: number };

export function createBearerResolver(db: Db, clock: Clock, options: { ttlMs: number }): BearerResolver {
  const cache = new Map<string, Entry>();
  // One lookup per token at a time: when an entry expires under load, the requests in flight with that token
  // (32 in bench/users-api.ts) wait for one query rather than each sending its own.
  const inFlight = new Map<string, Promise<Entry>>();
  // Bumped by every forget: a lookup that started before a revocation does not cache what it read.
  let generation = 0;
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

  /** Revocations are rare: one pass over the cache (at most MAX_ENTRIES) per announcement. */
  function forget(hashes: readonly string[] | '*') {
    generation++;
    inFlight.clear();
    if (hashes === '*') return cache.clear();
    const revoked = new Set(hashes);
    for (const [key, entry] of cache) if (revoked.has(entry.hash)) cache.delete(key);
  }

  async function miss(key: string, token: string, now: number): Promise<Entry> {
    const kind = tokenKindOf(token);
    if (!kind || !ACCEPTED_KINDS.has(kind)) throw bearerUnauthorized(INVALID, 'invalid_token');
    const hash = hashToken(token);
    const started = generation;
    const entry = { hash, outcome: await lookup(kind, hash), expiresAt: now + options.ttlMs };
    if (options.ttlMs > 0 && started === generation) {
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, entry);
    }
    return entry;
  }

  function lookupOnce(key: string, token: string, now: number): Promise<Entry> {
    let pending = inFlight.get(key);
    if (!pending) {
      const started = miss(key, token, now).finally(() => {
        if (inFlight.get(key) === started) inFlight.delete(key);
      });
      pending = started;
      inFlight.set(key, pending);
    }
    return pending;
  }

  /** The live entry under `key`, if there is one. */
  function fresh(key: string, now: number): Entry | undefined {
    const entry = cache.get(key);
    return entry !== undefined && entry.expiresAt > now ? entry : undefined;
  }

  function resolveToken(token: string): AuthContext | Promise<AuthContext> {
    const key = `Bearer ${token}`; // the header's usual form, which resolveAuthorization looks up as sent
    const now = clock.nowMs();
    const entry = fresh(key, now);
    return entry ? answer(entry) : lookupOnce(key, token, now).then(answer);
  }

  function answer(entry: Entry): AuthContext | Promise<AuthContext> {
    if (entry.outcome.ok) return entry.outcome.auth;
    return Promise.reject(bearerUnauthorized(entry.outcome.message, 'invalid_token'));
  }

  return {
    resolve: resolveToken,
    resolveAuthorization(header) {
      const entry = header === undefined ? undefined : fresh(header, clock.nowMs());
      return entry ? answer(entry) : resolveToken(bearerTokenOf(header));
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
