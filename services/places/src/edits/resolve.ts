import type { Queryable } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { resolveEdit } from '../store/edits.ts';
import { votesOn } from '../store/votes.ts';
import { decideTally, tallyOf } from '../trust/tally.ts';
import { loadTrust } from '../trust/trust.ts';
import { applyEdit } from './apply.ts';
import type { EditRow, Tally, VoteValue } from './types.ts';

/**
 * Counts a pending edit's votes under current trust and resolves it when a quorum is reached: applied
 * (status accepted) or, when the place changed under it, rejected as stale; or rejected by votes. Runs in the
 * transaction that holds the edit's row lock. Returns the edit as it now stands and its tally.
 */
export async function evaluate(
  tx: Queryable,
  deps: PlacesDeps,
  edit: EditRow,
  lastVote?: VoteValue,
): Promise<{ edit: EditRow; tally: Tally }> {
  const votes = await votesOn(tx, [edit.id]);
  const trust = await loadTrust(tx, deps.edits, [edit.contributor, ...votes.map((v) => v.contributor)]);
  const tally = tallyOf(edit, votes, trust, deps.edits);
  const decision = decideTally(tally, deps.edits, lastVote);
  if (!decision) return { edit, tally };
  const at = deps.clock.now();
  if (decision === 'reject') {
    const reason = `rejected by votes: ${tally.counted_rejections} independent rejection(s) weighing ${tally.reject_weight} reached the quorum of ${tally.reject_quorum}`;
    await resolveEdit(tx, edit.id, { status: 'rejected', resolution: 'votes', reason, at, tally });
    return {
      edit: {
        ...edit,
        status: 'rejected',
        resolution: 'votes',
        resolution_reason: reason,
        resolved_time: at,
        tally,
      },
      tally,
    };
  }
  const applied = await applyEdit(tx, deps, edit, at);
  if (!applied.ok) {
    await resolveEdit(tx, edit.id, {
      status: 'rejected',
      resolution: 'stale',
      reason: applied.reason,
      at,
      tally,
    });
    return {
      edit: {
        ...edit,
        status: 'rejected',
        resolution: 'stale',
        resolution_reason: applied.reason,
        resolved_time: at,
        tally,
      },
      tally,
    };
  }
  const trusted = tally.counted_approvals === 0;
  const resolution = trusted ? 'trusted' : 'quorum';
  const reason = trusted
    ? `applied at once: the author's trust weighs ${tally.author_weight}, reaching the quorum of ${tally.accept_quorum}`
    : `applied: ${tally.counted_approvals} independent approval(s) and the author's weight, ${tally.approve_weight} in all, reached the quorum of ${tally.accept_quorum}`;
  await resolveEdit(tx, edit.id, {
    status: 'accepted',
    resolution,
    reason,
    at,
    tally,
    ...(applied.createdPlaceId ? { createdPlaceId: applied.createdPlaceId } : {}),
  });
  return {
    edit: {
      ...edit,
      status: 'accepted',
      resolution,
      resolution_reason: reason,
      resolved_time: at,
      tally,
      created_fsq_place_id: applied.createdPlaceId ?? edit.created_fsq_place_id,
    },
    tally,
  };
}
