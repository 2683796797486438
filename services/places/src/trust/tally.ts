import type { Queryable } from '@cairn/kit';
import type { EditsConfig } from '../config.ts';
import type { EditRow, Tally, VoteRow } from '../edits/types.ts';
import { votesOn } from '../store/votes.ts';
import { authorWeight, voterWeight } from './accuracy.ts';
import { loadTrust, type TrustTable } from './trust.ts';

/** The weighted count of one edit's votes under the trust table. */
export function tallyOf(
  edit: EditRow,
  votes: readonly VoteRow[],
  trust: TrustTable,
  config: Readonly<EditsConfig>,
): Tally {
  const author = authorWeight(trust.within(edit.contributor, edit.organization_id), config);
  const tally: Tally = {
    approve: 0,
    reject: 0,
    skip: 0,
    author_weight: round(author),
    approve_weight: author,
    reject_weight: 0,
    accept_quorum: config.acceptQuorum,
    reject_quorum: config.rejectQuorum,
  };
  for (const v of votes) {
    tally[v.vote]++;
    const weight = voterWeight(trust.within(v.contributor, v.organization_id));
    if (v.vote === 'approve') tally.approve_weight += weight;
    if (v.vote === 'reject') tally.reject_weight += weight;
  }
  return { ...tally, approve_weight: round(tally.approve_weight), reject_weight: round(tally.reject_weight) };
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
