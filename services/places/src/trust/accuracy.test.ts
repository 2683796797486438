import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EDITS_CONFIG as config } from '../config.ts';
import {
  authorWeight,
  decide,
  NO_OUTCOMES,
  type Outcomes,
  organizationAccuracy,
  overallAccuracy,
} from './accuracy.ts';

const outcomes = fc.record({
  editsAccepted: fc.nat(40),
  editsRejected: fc.nat(40),
  editsRolledBack: fc.nat(5),
  votesAgreed: fc.nat(60),
  votesDisagreed: fc.nat(60),
});

/** Approvals (in the given order) until the edit applies; Infinity when these voters never get there. */
function votesNeeded(authorTrust: number, voterWeights: readonly number[]): number {
  let approve = authorWeight(authorTrust, config);
  if (decide(approve, 0, config) === 'accept') return 0;
  for (let i = 0; i < voterWeights.length; i++) {
    approve += voterWeights[i]!;
    if (decide(approve, 0, config, 'approve') === 'accept') return i + 1;
  }
  return Number.POSITIVE_INFINITY;
}

describe('accuracy', () => {
  it('starts at the prior mean and stays within 0 and 1', () => {
    expect(overallAccuracy(NO_OUTCOMES, config)).toBe(0.5);
    fc.assert(
      fc.property(outcomes, (o) => {
        const a = overallAccuracy(o, config);
        expect(a).toBeGreaterThan(0);
        expect(a).toBeLessThan(1);
      }),
    );
  });

  it('rises with each correct outcome and falls with each incorrect one', () => {
    fc.assert(
      fc.property(outcomes, (o) => {
        const a = overallAccuracy(o, config);
        expect(overallAccuracy({ ...o, editsAccepted: o.editsAccepted + 1 }, config)).toBeGreaterThan(a);
        expect(overallAccuracy({ ...o, votesAgreed: o.votesAgreed + 1 }, config)).toBeGreaterThan(a);
        expect(overallAccuracy({ ...o, editsRolledBack: o.editsRolledBack + 1 }, config)).toBeLessThan(a);
        expect(overallAccuracy({ ...o, votesDisagreed: o.votesDisagreed + 1 }, config)).toBeLessThan(a);
      }),
    );
  });

  it('within an organization equals the overall figure for a contributor of one organization', () => {
    fc.assert(
      fc.property(outcomes, (o) => {
        expect(organizationAccuracy(o, o, config)).toBeCloseTo(overallAccuracy(o, config), 12);
      }),
    );
  });

  it('within a new organization starts from the record elsewhere', () => {
    const elsewhere: Outcomes = { ...NO_OUTCOMES, editsAccepted: 10 };
    expect(organizationAccuracy(elsewhere, NO_OUTCOMES, config)).toBeCloseTo(
      overallAccuracy(elsewhere, config),
      12,
    );
  });
});

describe('author weight and quorum', () => {
  it('a new contributor weighs their trust; the most trusted reach the quorum alone', () => {
    expect(authorWeight(0.5, config)).toBe(0.5);
    expect(authorWeight(config.autoApply, config)).toBeCloseTo(config.acceptQuorum, 12);
    expect(votesNeeded(config.autoApply, [])).toBe(0);
    expect(votesNeeded(0.5, [0.5, 0.5, 0.5])).toBe(2);
  });

  it('never decreases with trust', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (a, b) => {
          const [lo, hi] = a < b ? [a, b] : [b, a];
          expect(authorWeight(hi, config)).toBeGreaterThanOrEqual(authorWeight(lo, config) - 1e-12);
        },
      ),
    );
  });

  it('a more trusted author never needs more votes, whoever votes', () => {
    fc.assert(
      fc.property(
        outcomes,
        outcomes,
        fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }),
        (x, y, weights) => {
          const [tx, ty] = [overallAccuracy(x, config), overallAccuracy(y, config)];
          const [trusted, other] = tx >= ty ? [tx, ty] : [ty, tx];
          expect(votesNeeded(trusted, weights)).toBeLessThanOrEqual(votesNeeded(other, weights));
        },
      ),
    );
  });

  it('weighted rejections reach the reject quorum; a last vote decides a tie of quorums', () => {
    expect(decide(0.5, 1, config, 'reject')).toBe('reject');
    expect(decide(0.5, 0.5, config, 'reject')).toBeUndefined();
    expect(decide(1.5, 1, config, 'reject')).toBe('reject');
    expect(decide(1.5, 1, config, 'approve')).toBe('accept');
  });
});
