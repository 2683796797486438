import { randomBytes } from 'node:crypto';

/** 16 hex characters, like a ray id: one per request, in the `CF-Ray` header, pages and events. */
export function newRayId(): string {
  return randomBytes(8).toString('hex');
}
