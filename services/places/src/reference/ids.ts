import { createHash } from 'node:crypto';

/**
 * Ids in the dataset's style: 24 lower-case hex digits (a BSON ObjectId's width). Reference data gets ids
 * derived from its source key, so the same preset or brand has the same id in every installation.
 */
export function hexId(namespace: string, key: string): string {
  return createHash('sha256').update(namespace).update('\0').update(key).digest('hex').slice(0, 24);
}

/**
 * The shape of a place id: 24 lower-case hex digits, as the dataset's ids and the ids this server makes
 * (generated and new places). The API's routes take `/places/{id}` only for this shape (any case), so a
 * mistyped path such as `/places/searchx` is an unknown route, not an unknown place.
 */
export const PLACE_ID = /^[0-9a-f]{24}$/;
