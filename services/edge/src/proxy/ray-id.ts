import { randomFillSync } from 'node:crypto';

const POOL = Buffer.allocUnsafe(8 * 512);
let next = POOL.length;

/**
 * 16 hex characters, like a ray id: one per request, in the `CF-Ray` header, pages and events. Random bytes
 * are drawn 4 KB at a time (one `randomFillSync` per 512 ids instead of one `randomBytes` per request).
 */
export function newRayId(): string {
  if (next === POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  next += 8;
  return POOL.toString('hex', next - 8, next);
}
