import { type AuthContext, CairnError, conflict, forbidden } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter } from '../errors.ts';
import { lockEdit } from '../store/edits.ts';
import { upsertVote, votesOn } from '../store/votes.ts';
import { type ApiParams, ParamReader } from './params.ts';
import { renderEdit } from './render.ts';
import { evaluate } from './resolve.ts';
import type { SuggestResponse } from './suggest.ts';
import { inTransaction } from './transaction.ts';
import { attributionOf, VOTE_VALUES, type VoteValue } from './types.ts';
import { editId } from './values.ts';

export const editNotFound = (id: string) =>
  new CairnError(404, 'not_found', `Suggested edit not found: no suggested edit has id "${id.slice(0, 80)}"`);

/**
 * `POST /places/suggest/{edit_id}/vote` with `vote=approve|reject|skip`. One vote per contributor and edit:
 * voting again while the edit is pending replaces the earlier vote. Authors cannot vote on their own edits
 * (403); resolved edits take no votes (409). A vote that reaches a quorum resolves the edit in the same
 * transaction, and the answer shows the outcome.
 */
export async function vote(deps: PlacesDeps, auth: AuthContext, params: ApiParams): Promise<SuggestResponse> {
  const p = new ParamReader(params, ['edit_id', 'vote', 'dry_run']);
  const idText = p.required('edit_id', 'the id of the suggested edit');
  const id = editId('edit_id', idText);
  const valueText = p.required('vote', VOTE_VALUES.join(', ')).trim().toLowerCase();
  const value = VOTE_VALUES.find((v) => v === valueText);
  if (!value)
    throw invalidParameter('vote', `"${valueText.slice(0, 40)}" is not one of ${VOTE_VALUES.join(', ')}`);
  const dryRun = p.dryRun();
  const voter = attributionOf(auth);
  const view = await inTransaction(deps.db, dryRun, async (tx) => {
    const edit = await lockEdit(tx, id);
    if (!edit) throw editNotFound(idText);
    if (edit.contributor === voter.contributor) {
      throw forbidden(
        voter.user_id === null
          ? `You cannot vote on your own suggested edit: ${edit.id} was made with a service key of this organization, and service keys vote as their organization`
          : `You cannot vote on your own suggested edit ${edit.id}`,
      );
    }
    if (edit.status !== 'pending') {
      throw conflict(
        `Suggested edit ${edit.id} is already ${edit.status}; votes are taken only while an edit is pending`,
      );
    }
    const at = deps.clock.now();
    await upsertVote(tx, {
      edit_id: edit.id,
      vote: value as VoteValue,
      created_at: at,
      updated_at: at,
      ...voter,
    });
    const result = await evaluate(tx, deps, edit, value);
    return renderEdit(result.edit, {
      viewer: voter.contributor,
      tally: result.tally,
      votes: await votesOn(tx, [edit.id]),
      dryRun,
    });
  });
  if (dryRun) view.id = id;
  return { suggested_edits: [view], errors: [] };
}
