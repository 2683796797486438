import { describe, expect, it } from 'vitest';
import { DEFAULT_EDITS_CONFIG, loadPlacesConfig } from './config.ts';

describe('places configuration', () => {
  it('has documented defaults for the suggested-edit thresholds', () => {
    expect(loadPlacesConfig({}).edits).toEqual({
      acceptQuorum: 1.5,
      rejectQuorum: 1,
      priorMean: 0.5,
      priorWeight: 4,
      autoApply: 0.9,
      voteWeight: 0.5,
    });
    expect(DEFAULT_EDITS_CONFIG.acceptQuorum).toBe(1.5);
  });

  it('reads REDIS_URL when set, and leaves it out when empty', () => {
    expect(loadPlacesConfig({ REDIS_URL: 'redis://10.0.0.5:6379/2' }).redisUrl).toBe(
      'redis://10.0.0.5:6379/2',
    );
    expect(loadPlacesConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  it('reads the variables', () => {
    const edits = loadPlacesConfig({
      PLACES_EDIT_ACCEPT_QUORUM: '2',
      PLACES_EDIT_REJECT_QUORUM: '1.5',
      PLACES_TRUST_PRIOR_MEAN: '0.4',
      PLACES_TRUST_PRIOR_WEIGHT: '10',
      PLACES_TRUST_AUTO_APPLY: '0.95',
      PLACES_TRUST_VOTE_WEIGHT: '1',
    }).edits;
    expect(edits).toEqual({
      acceptQuorum: 2,
      rejectQuorum: 1.5,
      priorMean: 0.4,
      priorWeight: 10,
      autoApply: 0.95,
      voteWeight: 1,
    });
  });

  it.each([
    [
      { PLACES_EDIT_ACCEPT_QUORUM: 'lots' },
      /^PLACES_EDIT_ACCEPT_QUORUM: expected a number from 0.01 to 1000, got "lots"$/,
    ],
    [{ PLACES_EDIT_REJECT_QUORUM: '0' }, /^PLACES_EDIT_REJECT_QUORUM/],
    [{ PLACES_TRUST_PRIOR_MEAN: '1' }, /^PLACES_TRUST_PRIOR_MEAN: expected a number between 0 and 1/],
    [{ PLACES_TRUST_AUTO_APPLY: '1.5' }, /^PLACES_TRUST_AUTO_APPLY: expected a number from 0 to 1/],
    [
      { PLACES_TRUST_AUTO_APPLY: '0.4' },
      /^PLACES_TRUST_AUTO_APPLY: must be above PLACES_TRUST_PRIOR_MEAN \(0.5\)/,
    ],
    [{ PLACES_TRUST_VOTE_WEIGHT: '-1' }, /^PLACES_TRUST_VOTE_WEIGHT/],
    [
      { REDIS_URL: 'localhost:6379' },
      /^REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL, got "localhost:"/,
    ],
    [{ REDIS_URL: 'not a url' }, /^REDIS_URL: expected a URL like redis:\/\/127.0.0.1:6379/],
  ])('refuses %j naming the variable', (env, message) => {
    expect(() => loadPlacesConfig(env)).toThrow(message);
  });
});
