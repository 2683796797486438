import { createHash } from 'node:crypto';

/**
 * Ids in the dataset's style: 24 lower-case hex digits (a BSON ObjectId's width). Reference data gets ids
 * derived from its source key, so the same preset or brand has the same id in every installation.
 */
export function hexId(namespace: string, key: string): string {
  return createHash('sha256').update(namespace).update('\0').update(key).digest('hex').slice(0, 24);
}
