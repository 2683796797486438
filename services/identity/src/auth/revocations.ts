import type { Db, Queryable } from '@cairn/kit';

/**
 * Revoked credentials are announced on one PostgreSQL channel so that every process sharing the database
 * drops them from its cache at once (the cache TTL bounds the delay if a notification is lost).
 * The payload is a token hash, or "*" to flush everything.
 */
export const REVOCATION_CHANNEL = 'cairn_credentials_revoked';

const MAX_HASHES_PER_MESSAGE = 100; // NOTIFY payloads are limited to 8000 bytes

/** Announces revocations from inside the revoking transaction: PostgreSQL delivers them at commit. */
export async function announceRevoked(tx: Queryable, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  const payload = hashes.length > MAX_HASHES_PER_MESSAGE ? '*' : hashes.join(',');
  await tx.query('SELECT pg_notify($1, $2)', [REVOCATION_CHANNEL, payload]);
}

export function onRevoked(db: Db, handler: (hashes: string[] | '*') => void) {
  return db.listen(REVOCATION_CHANNEL, (payload) => handler(payload === '*' ? '*' : payload.split(',')));
}
