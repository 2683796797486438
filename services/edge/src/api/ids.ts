import { createHash, randomBytes } from 'node:crypto';

/** Every object id of the edge API: 32 lowercase hex characters. */
export const HEX_ID = /^[0-9a-f]{32}$/;

export const isHexId = (value: unknown): value is string => typeof value === 'string' && HEX_ID.test(value);

export function newHexId(): string {
  return randomBytes(16).toString('hex');
}

/** A stable id for catalogue entries (legacy packages, groups, managed rules) derived from a name. */
export function stableId(seed: string): string {
  return createHash('md5').update(`cairn-edge:${seed}`).digest('hex');
}
