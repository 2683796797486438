import type { Queryable } from '@cairn/kit';
import type { EditsConfig } from '../config.ts';
import type { EditRow, Tally, VoteRow } from '../edits/types.ts';
import { votesOn } from '../store/votes.ts';
import { authorWeight, type Decision, decide, voterWeight } from './accuracy.ts';
import { isIndependent, isOrganizationControlled, partyOf } from './independence.ts';
import { loadTrust, type TrustTable } from './trust.ts';

/**
 * The weighted count of one edit's votes under the trust table. Only votes independent of the edit count
 * (`isIndependent`), and each party counts once per side, with the weight of its most trusted voter: ten
 * managed users of one organization weigh what its most trusted one weighs.
 */
export function tallyOf(
  edit: EditRow,
  votes: readonly VoteRow[],
  trust: TrustTable,
  config: Readonly<EditsConfig>,
): Tally {
  const author = authorWeight(trust.within(edit.contributor, edit.organization_id), config);
  const sides = { approve: new Map<string, number>(), reject: new Map<string, number>() };
  const tally: Tally = {
    approve: 0,
    reject: 0,
    skip: 0,
    author_weight: round(author),
    approve_weight: author,
    reject_weight: 0,
    accept_quorum: config.acceptQuorum,
    reject_quorum: config.rejectQuorum,
    counted_approvals: 0,
    counted_rejections: 0,
    not_counted: 0,
    independent_approval_required: isOrganizationControlled(edit),
  };
  for (const v of votes) {
    tally[v.vote]++;
    if (v.vote === 'skip') continue;
    if (!isIndependent(edit, v)) {
      tally.not_counted++;
      continue;
    }
    const side = sides[v.vote];
    const party = partyOf(v);
    if (side.has(party)) tally.not_counted++;
    side.set(
      party,
      Math.max(side.get(party) ?? 0, voterWeight(trust.within(v.contributor, v.organization_id))),
    );
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    ...tally,
    approve_weight: round(author + sum(sides.approve)),
    reject_weight: round(sum(sides.reject)),
    counted_approvals: sides.approve.size,
    counted_rejections: sides.reject.size,
  };
}

/**
 * The decision on a tally: `decide` on its weights, except that an edit needing an independent approval is not
 * accepted without one (it can still be rejected).
 */
export function decideTally(
  tally: Tally,
  config: Readonly<EditsConfig>,
  lastVote?: 'approve' | 'reject' | 'skip',
): Decision {
  const blocked = tally.independent_approval_required && tally.counted_approvals === 0;
  return decide(blocked ? 0 : tally.approve_weight, tally.reject_weight, config, lastVote);
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Live tallies of pending edits (resolved ones keep the tally of their resolution), with the votes read. */
export async function tallies(
  db: Queryable,
  config: Readonly<EditsConfig>,
  edits: readonly EditRow[],
): Promise<{ tallies: Map<string, Tally>; votes: Map<string, VoteRow[]> }> {
  const allVotes = await votesOn(
    db,
    edits.map((e) => e.id),
  );
  const votes = new Map<string, VoteRow[]>();
  for (const v of allVotes) votes.set(v.edit_id, [...(votes.get(v.edit_id) ?? []), v]);
  const pending = edits.filter((e) => e.status === 'pending');
  const trust = await loadTrust(db, config, [
    ...pending.map((e) => e.contributor),
    ...pending.flatMap((e) => (votes.get(e.id) ?? []).map((v) => v.contributor)),
  ]);
  const out = new Map<string, Tally>();
  for (const e of edits)
    out.set(
      e.id,
      e.status === 'pending' || !e.tally ? tallyOf(e, votes.get(e.id) ?? [], trust, config) : e.tally,
    );
  return { tallies: out, votes };
}
