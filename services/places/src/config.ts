import { ConfigError } from '@cairn/kit';
import type { RateStore } from './access/rate-limit.ts';

/**
 * The places service's settings, from the environment (read once, at the composition root):
 * PLACES_RATE_LIMIT   requests per second per credential (default 50, as the real service's standard tier)
 * PLACES_RATE_BURST   bucket size (default: the rate, i.e. one second's worth)
 * PLACES_DEMO_COUNT   places generated on first start (default 80000; 0 seeds nothing)
 * REDIS_URL           optional: the rate limit's buckets in Redis (redis:// or rediss://); unset, they are in the
 *                     PostgreSQL database (shared by every host), or in the process on the embedded PGlite
 * and the suggested-edit thresholds of `EditsConfig` (PLACES_EDIT_*, PLACES_TRUST_*).
 */
export interface PlacesConfig {
  rateLimit: number;
  rateBurst: number;
  /** Where the rate limit's buckets live; unset: Redis with redisUrl, else the database on PostgreSQL, else memory. */
  rateStore?: RateStore;
  redisUrl?: string;
  demoCount: number;
  edits: EditsConfig;
}

/**
 * How votes resolve suggested edits (services/places/README.md, "Suggested edits, votes and trust").
 * A contributor's trust is a Bayesian accuracy: (correct + mean × weight) / (outcomes + weight).
 */
export interface EditsConfig {
  /** PLACES_EDIT_ACCEPT_QUORUM: trust-weighted approvals (the author's own weight included) that apply an edit. */
  acceptQuorum: number;
  /** PLACES_EDIT_REJECT_QUORUM: trust-weighted rejections that reject an edit. */
  rejectQuorum: number;
  /** PLACES_TRUST_PRIOR_MEAN: where a contributor without history starts (0–1, exclusive). */
  priorMean: number;
  /** PLACES_TRUST_PRIOR_WEIGHT: how many outcomes the prior is worth. */
  priorWeight: number;
  /** PLACES_TRUST_AUTO_APPLY: trust from which an author's edits are applied without votes. */
  autoApply: number;
  /** PLACES_TRUST_VOTE_WEIGHT: evidence of one vote's outcome, relative to one edit's outcome. */
  voteWeight: number;
}

export const DEFAULT_EDITS_CONFIG: EditsConfig = Object.freeze({
  acceptQuorum: 1.5,
  rejectQuorum: 1,
  priorMean: 0.5,
  priorWeight: 4,
  autoApply: 0.9,
  voteWeight: 0.5,
});

export const DEFAULT_PLACES_CONFIG: PlacesConfig = Object.freeze({
  rateLimit: 50,
  rateBurst: 50,
  // demo.ts DEMO_COUNT: what the dense demo's plan needs
  demoCount: 80_000,
  edits: DEFAULT_EDITS_CONFIG,
});

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function decimal(
  env: Env,
  name: string,
  fallback: number,
  range: { min: number; max: number; exclusive?: boolean },
) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const inRange = range.exclusive
    ? value > range.min && value < range.max
    : value >= range.min && value <= range.max;
  if (!/^\d+(\.\d+)?$/.test(raw) || !inRange) {
    const bounds = range.exclusive
      ? `between ${range.min} and ${range.max}`
      : `from ${range.min} to ${range.max}`;
    throw new ConfigError(name, `expected a number ${bounds}, got "${raw}"`);
  }
  return value;
}

export function loadEditsConfig(env: Env): Readonly<EditsConfig> {
  const d = DEFAULT_EDITS_CONFIG;
  const priorMean = decimal(env, 'PLACES_TRUST_PRIOR_MEAN', d.priorMean, { min: 0, max: 1, exclusive: true });
  const autoApply = decimal(env, 'PLACES_TRUST_AUTO_APPLY', d.autoApply, { min: 0, max: 1 });
  if (autoApply <= priorMean) {
    throw new ConfigError(
      'PLACES_TRUST_AUTO_APPLY',
      `must be above PLACES_TRUST_PRIOR_MEAN (${priorMean}), or every new contributor's edits would apply at once; got "${autoApply}"`,
    );
  }
  return Object.freeze({
    acceptQuorum: decimal(env, 'PLACES_EDIT_ACCEPT_QUORUM', d.acceptQuorum, { min: 0.01, max: 1000 }),
    rejectQuorum: decimal(env, 'PLACES_EDIT_REJECT_QUORUM', d.rejectQuorum, { min: 0.01, max: 1000 }),
    priorMean,
    priorWeight: decimal(env, 'PLACES_TRUST_PRIOR_WEIGHT', d.priorWeight, { min: 0.01, max: 10_000 }),
    autoApply,
    voteWeight: decimal(env, 'PLACES_TRUST_VOTE_WEIGHT', d.voteWeight, { min: 0, max: 100 }),
  });
}

function redisUrl(env: Env): { redisUrl?: string } {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return {};
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError('REDIS_URL', 'expected a URL like redis://127.0.0.1:6379');
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new ConfigError('REDIS_URL', `expected a redis:// or rediss:// URL, got "${protocol}"`);
  }
  return { redisUrl: raw };
}

export function loadPlacesConfig(env: Env): Readonly<PlacesConfig> {
  const rateLimit = integer(env, 'PLACES_RATE_LIMIT', DEFAULT_PLACES_CONFIG.rateLimit, 1, 1_000_000);
  return Object.freeze({
    rateLimit,
    rateBurst: integer(env, 'PLACES_RATE_BURST', rateLimit, 1, 10_000_000),
    ...redisUrl(env),
    demoCount: integer(env, 'PLACES_DEMO_COUNT', DEFAULT_PLACES_CONFIG.demoCount, 0, 10_000_000),
    edits: loadEditsConfig(env),
  });
}
