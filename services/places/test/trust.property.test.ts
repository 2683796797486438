import type { AuthContext } from '@cairn/kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contributorAccuracy, type PlacesDeps, suggestEdit, vote } from '../src/index.ts';
import { placeIds } from './edit-helpers.ts';
import { type PlacesFixture, startPlaces } from './helpers.ts';

/**
 * "A trusted user's edit is applied after fewer votes than a new user's", over generated histories: a
 * contributor's record of accepted and rejected edits and of votes that agreed or disagreed with the outcome
 * is built through the service functions, then that contributor and a newcomer each suggest an edit, and
 * newcomers approve each one until it applies.
 */
let f: PlacesFixture;
let deps: PlacesDeps;
let placeId: string;
let nextUser = 1_000_000;

beforeAll(async () => {
  f = await startPlaces({ count: 20, seed: 'trust' });
  deps = f.places.deps;
  placeId = (await placeIds(f))[0]!;
}, 120_000);
afterAll(async () => {
  await f.close();
});

/** A person new to editing, connected to an app (people are independent of each other and of the app). */
const newcomer = (): AuthContext => ({
  kind: 'oauth_user',
  organizationId: f.orgId,
  appId: 'trust-test-app',
  userId: nextUser++,
  credentialId: `test-${nextUser}`,
});

let nameSerial = 0;
async function suggest(author: AuthContext): Promise<string> {
  const res = await suggestEdit(deps, author, { fsq_place_id: placeId, name: `Name ${++nameSerial}` });
  return res.suggested_edits[0]!.id!;
}

/** Newcomers vote `value` until the edit leaves pending; returns how many votes that took. */
async function voteUntilResolved(
  editId: string,
  value: 'approve' | 'reject',
  first?: AuthContext,
): Promise<number> {
  let status = 'pending';
  let votes = 0;
  if (first) {
    status = (await vote(deps, first, { edit_id: editId, vote: value })).suggested_edits[0]!.status;
    votes++;
  }
  const current = await deps.db.query<{ status: string }>('SELECT status FROM places_edits WHERE id = $1', [
    editId,
  ]);
  status = current.rows[0]!.status;
  while (status === 'pending') {
    if (votes > 20) throw new Error(`edit ${editId} still pending after 20 votes`);
    status = (await vote(deps, newcomer(), { edit_id: editId, vote: value })).suggested_edits[0]!.status;
    votes++;
  }
  return votes;
}

type Step = 'accepted' | 'rejected' | 'agreed' | 'disagreed';

/**
 * Mostly good histories, in a random order: accepted edits at least 2 + twice the rejected ones, at most one
 * disagreeing vote in four. (With the default settings such a record is worth at least 0.66.)
 */
const history = fc
  .record({ accepted: fc.integer({ min: 2, max: 6 }), agreed: fc.integer({ min: 0, max: 4 }) })
  .chain(({ accepted, agreed }) =>
    fc.record({
      accepted: fc.constant(accepted),
      rejected: fc.integer({ min: 0, max: Math.floor((accepted - 2) / 2) }),
      agreed: fc.constant(agreed),
      disagreed: fc.integer({ min: 0, max: Math.floor(agreed / 3) }),
    }),
  )
  .chain((h) => {
    const steps: Step[] = [
      ...Array<Step>(h.accepted).fill('accepted'),
      ...Array<Step>(h.rejected).fill('rejected'),
      ...Array<Step>(h.agreed).fill('agreed'),
      ...Array<Step>(h.disagreed).fill('disagreed'),
    ];
    return fc
      .shuffledSubarray(steps, { minLength: steps.length, maxLength: steps.length })
      .map((order) => ({ ...h, steps: order }));
  });

describe('trust', () => {
  it('a trusted user’s edit is applied after fewer votes than a new user’s', async () => {
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const trusted = newcomer();
        for (const step of h.steps) {
          if (step === 'accepted') await voteUntilResolved(await suggest(trusted), 'approve');
          else if (step === 'rejected') await voteUntilResolved(await suggest(trusted), 'reject');
          else if (step === 'agreed') await voteUntilResolved(await suggest(newcomer()), 'approve', trusted);
          else {
            // The trusted contributor rejects; newcomers accept.
            const id = await suggest(newcomer());
            await vote(deps, trusted, { edit_id: id, vote: 'reject' });
            await voteUntilResolved(id, 'approve');
          }
        }
        const record = await contributorAccuracy(deps, trusted);
        expect(record.overall.edits).toMatchObject({ accepted: h.accepted, rejected: h.rejected });
        expect(record.overall.votes).toMatchObject({ agreed: h.agreed, disagreed: h.disagreed });
        expect(record.accuracy).toBeGreaterThan(0.5);

        const trustedVotes = await voteUntilResolved(await suggest(trusted), 'approve');
        const newVotes = await voteUntilResolved(await suggest(newcomer()), 'approve');
        expect(newVotes).toBe(2);
        expect(trustedVotes).toBeLessThan(newVotes);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('the most trusted contributors’ edits apply at once', async () => {
    const veteran = newcomer();
    // Sixteen accepted edits and no rejection: (16 + 2) / (16 + 4) = 0.9, the auto-apply threshold.
    for (let i = 0; i < 16; i++) await voteUntilResolved(await suggest(veteran), 'approve');
    const record = await contributorAccuracy(deps, veteran);
    expect(record.applies_immediately).toBe(true);
    const res = await suggestEdit(deps, veteran, { fsq_place_id: placeId, name: 'Veteran Name' });
    expect(res.suggested_edits[0]).toMatchObject({ status: 'accepted', resolution: { kind: 'trusted' } });
  }, 60_000);
});
