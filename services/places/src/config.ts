import { ConfigError } from '@cairn/kit';

/**
 * The places service's settings, from the environment (read once, at the composition root):
 * PLACES_RATE_LIMIT   requests per second per credential (default 50, as the real service's standard tier)
 * PLACES_RATE_BURST   bucket size (default: the rate, i.e. one second's worth)
 * PLACES_DEMO_COUNT   places generated on first start (default 20000; 0 seeds nothing)
 */
export interface PlacesConfig {
  rateLimit: number;
  rateBurst: number;
  demoCount: number;
}

export const DEFAULT_PLACES_CONFIG: PlacesConfig = Object.freeze({
  rateLimit: 50,
  rateBurst: 50,
  demoCount: 30_000,
});

function integer(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function loadPlacesConfig(env: Record<string, string | undefined>): Readonly<PlacesConfig> {
  const rateLimit = integer(env, 'PLACES_RATE_LIMIT', DEFAULT_PLACES_CONFIG.rateLimit, 1, 1_000_000);
  return Object.freeze({
    rateLimit,
    rateBurst: integer(env, 'PLACES_RATE_BURST', rateLimit, 1, 10_000_000),
    demoCount: integer(env, 'PLACES_DEMO_COUNT', DEFAULT_PLACES_CONFIG.demoCount, 0, 10_000_000),
  });
}
