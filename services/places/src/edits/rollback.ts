import { conflict, type Queryable } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { lockEdit, markRolledBack } from '../store/edits.ts';
import { type HistoryEntry, insertHistory, laterAcceptedEdits } from '../store/history.ts';
import { deleteTipOfEdit } from '../store/media.ts';
import { lockPlace } from '../store/places-read.ts';
import { namesOf, writePlaces } from '../store/places-write.ts';
import { putBackPlace, setDescription, takeOutPlace } from '../store/removed.ts';
import {
  describe,
  fieldValue,
  isEditable,
  MERGED_INTO,
  REMOVED,
  recordOf,
  sameValue,
  setField,
} from './changes.ts';
import { TIP } from './tip.ts';
import { inTransaction } from './transaction.ts';
import type { Change, EditRow } from './types.ts';
import { editId } from './values.ts';
import { editNotFound } from './vote.ts';

/**
 * Operator rollback (`cairn edits rollback <edit-id>`): restores the values an accepted edit replaced, puts
 * back places it took out, takes out a place it created, records each restored field in the history (as the
 * operator) and marks the edit rolled_back, which counts against its author's accuracy and for those who
 * voted to reject it.
 *
 * When a later accepted edit changed the same fields of the same place (or removed, merged or, for a created
 * place, edited it), rolling back alone would overwrite newer data: it is refused with a message naming those
 * edits, unless `cascade` is set, in which case they are rolled back first, newest first, in the same
 * transaction.
 */
export interface RollbackOptions {
  reason?: string;
  cascade?: boolean;
}

export async function rollbackEdit(
  deps: PlacesDeps,
  id: string,
  options: RollbackOptions = {},
): Promise<{ rolled_back: string[] }> {
  const editIdValue = editId('edit_id', id);
  const reason = options.reason?.trim() || 'rolled back by an operator';
  return inTransaction(deps.db, false, async (tx) => {
    const done: string[] = [];
    await rollbackOne(
      tx,
      deps,
      editIdValue,
      { reason, cascade: options.cascade === true },
      done,
      editIdValue,
    );
    return { rolled_back: done };
  });
}

async function rollbackOne(
  tx: Queryable,
  deps: PlacesDeps,
  id: string,
  options: { reason: string; cascade: boolean },
  done: string[],
  requested: string,
): Promise<void> {
  const edit = await lockEdit(tx, id);
  if (!edit) throw editNotFound(id);
  if (edit.status === 'rolled_back') throw conflict(`Suggested edit ${id} is already rolled back`);
  if (edit.status !== 'accepted') {
    throw conflict(
      `Suggested edit ${id} is ${edit.status}; only accepted (applied) edits can be rolled back`,
    );
  }
  const later = await dependents(tx, edit);
  if (later.length > 0 && !options.cascade) {
    const list = later.map((l) => `${l.edit_id} (${l.field}, ${l.at.toISOString()})`).join(', ');
    throw conflict(
      `Cannot roll back ${id}: later accepted edit(s) changed the same data: ${list}. Roll those back first, newest first, or roll them back together with --cascade`,
    );
  }
  for (const l of later) await rollbackOne(tx, deps, l.edit_id, options, done, requested);
  const at = deps.clock.now();
  await undo(tx, deps, edit, at);
  const why = id === requested ? options.reason : `${options.reason} (cascade from ${requested})`;
  await markRolledBack(tx, id, at, why);
  done.push(id);
}

/** Accepted edits applied after this one that touched what it changed, newest first. */
async function dependents(tx: Queryable, edit: EditRow) {
  if (edit.suggested_edit_type === 'new_place') {
    return edit.created_fsq_place_id ? laterAcceptedEdits(tx, edit.created_fsq_place_id, edit.id, null) : [];
  }
  const fields = edit.changes.filter((c) => isEditable(c.field)).map((c) => c.field);
  if (fields.length === 0 || edit.fsq_place_id === null) return [];
  return laterAcceptedEdits(tx, edit.fsq_place_id, edit.id, [...fields, REMOVED, MERGED_INTO]);
}

async function undo(tx: Queryable, deps: PlacesDeps, edit: EditRow, at: Date): Promise<void> {
  const history: HistoryEntry[] = [];
  const entry = (placeId: string, c: Change, from = c.to, to = c.from): HistoryEntry => ({
    fsq_place_id: placeId,
    edit_id: edit.id,
    action: 'rollback',
    field: c.field,
    from,
    to,
    at,
    organization_id: null,
    app_id: null,
    user_id: null,
    credential_kind: 'operator',
  });
  if (edit.suggested_edit_type === 'new_place') {
    const placeId = edit.created_fsq_place_id!;
    if (!(await lockPlace(tx, placeId)))
      throw conflict(`The place ${placeId} that ${edit.id} created no longer exists`);
    await takeOutPlace(tx, placeId, edit.id, at);
    history.push(...edit.changes.map((c) => entry(placeId, c, c.to, null)));
  }
  const fieldChanges = edit.changes.filter((c) => isEditable(c.field));
  if (edit.suggested_edit_type !== 'new_place' && fieldChanges.length > 0) {
    const placeId = edit.fsq_place_id!;
    const place = await lockPlace(tx, placeId);
    if (!place) throw conflict(`Cannot roll back ${edit.id}: the place ${placeId} no longer exists`);
    const record = recordOf(place);
    const reference = deps.reference();
    for (const c of fieldChanges) {
      if (!isEditable(c.field)) continue;
      const now = fieldValue(place, c.field);
      if (!sameValue(now, c.to)) {
        throw conflict(
          `Cannot roll back ${edit.id}: ${c.field} of ${placeId} is now ${describe(now)}, not the ${describe(c.to)} this edit set, and no suggested edit explains it (the place was changed directly, e.g. by an import)`,
        );
      }
      setField(record, c.field, c.from, reference);
      history.push(entry(placeId, c));
    }
    await writePlaces(tx, [record], namesOf(reference));
    if (fieldChanges.some((c) => c.field === 'description'))
      await setDescription(tx, placeId, record.description);
  }
  const tip = edit.changes.find((c) => c.field === TIP);
  if (tip) {
    if (!(await deleteTipOfEdit(tx, edit.id)))
      throw conflict(`Cannot roll back ${edit.id}: the tip it added is no longer stored`);
    history.push(entry(tip.fsq_place_id!, tip));
  }
  for (const c of edit.changes.filter((x) => x.field === REMOVED || x.field === MERGED_INTO)) {
    const placeId = c.fsq_place_id!;
    if (!(await putBackPlace(tx, placeId))) {
      throw conflict(
        `Cannot roll back ${edit.id}: the place ${placeId} cannot be put back (a place with its id exists again, or it was not kept)`,
      );
    }
    history.push(entry(placeId, c));
  }
  await insertHistory(tx, history);
}
