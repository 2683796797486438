import { type AuthContext, newId, type Queryable } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter, placeNotFound } from '../errors.ts';
import { PLACE_ID } from '../reference/ids.ts';
import { insertEdit } from '../store/edits.ts';
import { findPlace, type PlaceRow } from '../store/places-read.ts';
import { REMOVED } from './changes.ts';
import { EDIT_PARAMETERS, editChanges } from './edit-fields.ts';
import { type ApiParams, ParamReader } from './params.ts';
import { type EditView, renderEdit } from './render.ts';
import { evaluate } from './resolve.ts';
import { inTransaction } from './transaction.ts';
import { attributionOf, type Change, type EditDetails, type EditRow, type EditType } from './types.ts';
import { plainText } from './values.ts';

/** What the suggest endpoints answer: the edits created (one) and non-fatal problems (none so far). */
export interface SuggestResponse {
  suggested_edits: EditView[];
  errors: { message: string }[];
}

export interface Draft {
  type: EditType;
  placeId: string | null;
  changes: Change[];
  details: EditDetails;
  latitude: number;
  longitude: number;
  matchedPlaceId?: string | null;
}

/** Stores a suggestion and lets trust decide at once (a trusted author's edit applies without votes). */
export async function createEdit(
  deps: PlacesDeps,
  auth: AuthContext,
  dryRun: boolean,
  build: (tx: Queryable) => Promise<Draft>,
): Promise<EditView> {
  return inTransaction(deps.db, dryRun, async (tx) => {
    const draft = await build(tx);
    const row: EditRow = {
      id: newId(),
      fsq_place_id: draft.placeId,
      suggested_edit_type: draft.type,
      status: 'pending',
      changes: draft.changes,
      details: draft.details,
      latitude: draft.latitude,
      longitude: draft.longitude,
      created_at: deps.clock.now(),
      resolved_time: null,
      resolution: null,
      resolution_reason: null,
      tally: null,
      rolled_back_time: null,
      rolled_back_reason: null,
      created_fsq_place_id: null,
      matched_fsq_place_id: draft.matchedPlaceId ?? null,
      ...attributionOf(auth),
    };
    await insertEdit(tx, row);
    const { edit, tally } = await evaluate(tx, deps, row);
    return renderEdit(edit, { viewer: row.contributor, tally, votes: [], dryRun });
  });
}

export function placeIdParam(params: ParamReader): string {
  const id = params.required('fsq_place_id', 'the id of the place');
  if (!PLACE_ID.test(id)) throw placeNotFound(id);
  return id;
}

export async function placeOrNotFound(tx: Queryable, id: string): Promise<PlaceRow> {
  const place = await findPlace(tx, id);
  if (!place) throw placeNotFound(id);
  return place;
}

export function commentParam(params: ParamReader): { comment?: string } {
  const comment = params.text('comment');
  if (comment === undefined) return {};
  if (comment.trim() === '') throw invalidParameter('comment', 'give some text, or leave comment out');
  return { comment: plainText('comment', comment, 1000) };
}

const respond = (edit: EditView): SuggestResponse => ({ suggested_edits: [edit], errors: [] });

/** `POST /places/{fsq_place_id}/suggest/edit` */
export async function suggestEdit(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<SuggestResponse> {
  const p = new ParamReader(params, ['fsq_place_id', ...EDIT_PARAMETERS]);
  const id = placeIdParam(p);
  const dryRun = p.dryRun();
  const details = commentParam(p);
  const edit = await createEdit(deps, auth, dryRun, async (tx) => {
    const place = await placeOrNotFound(tx, id);
    return {
      type: 'edit',
      placeId: id,
      changes: editChanges(p, place, deps),
      details,
      latitude: place.latitude,
      longitude: place.longitude,
    };
  });
  return respond(edit);
}

export const REMOVE_REASONS = [
  'CLOSED',
  'DOESNT_EXIST',
  'INAPPROPRIATE',
  'NOT_CLOSED',
  'OTHER',
  'PRIVATE',
] as const;

/**
 * `POST /places/{fsq_place_id}/suggest/remove`. CLOSED sets date_closed (to the day of the suggestion),
 * NOT_CLOSED clears it; the other reasons take the place out of the store when accepted.
 */
export async function suggestRemove(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<SuggestResponse> {
  const p = new ParamReader(params, ['fsq_place_id', 'reason', 'comment', 'dry_run']);
  const id = placeIdParam(p);
  const reasonText = p
    .required('reason', `one of ${REMOVE_REASONS.join(', ')}`)
    .trim()
    .toUpperCase();
  const reason = REMOVE_REASONS.find((r) => r === reasonText);
  if (!reason)
    throw invalidParameter(
      'reason',
      `"${reasonText.slice(0, 40)}" is not one of ${REMOVE_REASONS.join(', ')}`,
    );
  const dryRun = p.dryRun();
  const details = { reason, ...commentParam(p) };
  const edit = await createEdit(deps, auth, dryRun, async (tx) => {
    const place = await placeOrNotFound(tx, id);
    let change: Change;
    if (reason === 'CLOSED') {
      if (place.date_closed !== null) {
        throw invalidParameter(
          'reason',
          `the place is already marked closed (date_closed ${place.date_closed})`,
        );
      }
      change = {
        fsq_place_id: id,
        field: 'date_closed',
        from: null,
        to: deps.clock.now().toISOString().slice(0, 10),
      };
    } else if (reason === 'NOT_CLOSED') {
      if (place.date_closed === null) throw invalidParameter('reason', 'the place is not marked closed');
      change = { fsq_place_id: id, field: 'date_closed', from: place.date_closed, to: null };
    } else {
      change = { fsq_place_id: id, field: REMOVED, from: false, to: true };
    }
    return {
      type: 'remove',
      placeId: id,
      changes: [change],
      details,
      latitude: place.latitude,
      longitude: place.longitude,
    };
  });
  return respond(edit);
}
