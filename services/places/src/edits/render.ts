import type { EditRow, Tally, VoteRow, VoteValue } from './types.ts';

/**
 * The suggested-edit object ("woe"): the reference's fields, then what a voter needs — the changes with
 * their from and to values, what the edit says (reason, comment, …), the weighted vote count, how it was
 * resolved, and the viewer's own relation to it. Attribution is stored, not shown (see the place history).
 */
export interface EditView {
  id: string | null;
  fsq_place_id: string | null;
  suggested_edit_type: string;
  created_at: string;
  resolved_time: string | null;
  rolled_back: { time: string; reason: string } | null;
  status: string;
  created_fsq_place_id: string | null;
  matched_fsq_place_id: string | null;
  changes: EditRow['changes'];
  details: EditRow['details'];
  votes: Tally;
  resolution: { kind: string; reason: string } | null;
  own: boolean;
  my_vote: VoteValue | null;
  dry_run?: true;
}

export function renderEdit(
  edit: EditRow,
  context: { viewer: string; tally: Tally; votes?: readonly VoteRow[]; dryRun?: boolean },
): EditView {
  const mine = context.votes?.find((v) => v.contributor === context.viewer);
  const view: EditView = {
    id: context.dryRun ? null : edit.id,
    fsq_place_id: edit.fsq_place_id,
    suggested_edit_type: edit.suggested_edit_type,
    created_at: edit.created_at.toISOString(),
    resolved_time: edit.resolved_time?.toISOString() ?? null,
    rolled_back:
      edit.rolled_back_time === null
        ? null
        : { time: edit.rolled_back_time.toISOString(), reason: edit.rolled_back_reason ?? '' },
    status: edit.status,
    created_fsq_place_id: context.dryRun ? null : edit.created_fsq_place_id,
    matched_fsq_place_id: edit.matched_fsq_place_id,
    changes: edit.changes,
    details: edit.details,
    votes: context.tally,
    resolution:
      edit.resolution === null ? null : { kind: edit.resolution, reason: edit.resolution_reason ?? '' },
    own: edit.contributor === context.viewer,
    my_vote: mine?.vote ?? null,
  };
  if (context.dryRun) view.dry_run = true;
  return view;
}
