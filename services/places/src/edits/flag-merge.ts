import type { AuthContext } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter } from '../errors.ts';
import { parseIdList } from '../search/params.ts';
import { findPlaces } from '../store/places-read.ts';
import { MERGED_INTO } from './changes.ts';
import { type ApiParams, ParamReader } from './params.ts';
import { commentParam, createEdit, placeIdParam, placeOrNotFound, type SuggestResponse } from './suggest.ts';
import type { Change } from './types.ts';

/** The fields a flag may say are wrong (the reference's list). */
export const FLAG_FIELDS = [
  'address',
  'latitude',
  'longitude',
  'locality',
  'name',
  'tel',
  'postcode',
  'region',
  'state',
  'website',
  'placeActions',
] as const;

/** Problem kinds (the legacy flag endpoint's `problem` values; mislocated is "wrong location"). */
export const FLAG_PROBLEMS = [
  'closed',
  'doesnt_exist',
  'duplicate',
  'inappropriate',
  'incorrect_items',
  'locationreview',
  'mislocated',
  'not_closed',
  'other',
  'private',
  'public',
  'suspicious_hours',
] as const;

/**
 * `POST /places/{fsq_place_id}/suggest/flag`: a report that fields are wrong (`fields`) or of a problem
 * (`problem`), without a correction. Voters confirm (accepted) or dismiss (rejected) it; it changes no field.
 */
export async function suggestFlag(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<SuggestResponse> {
  const p = new ParamReader(params, ['fsq_place_id', 'fields', 'problem', 'comment', 'dry_run']);
  const id = placeIdParam(p);
  const fieldsText = p.text('fields');
  const problemText = p.text('problem');
  if (fieldsText === undefined && problemText === undefined) {
    throw invalidParameter(
      'fields',
      `fields is required (comma list of ${FLAG_FIELDS.join(', ')}), or give a problem (${FLAG_PROBLEMS.join(', ')})`,
    );
  }
  const fields =
    fieldsText === undefined
      ? undefined
      : [
          ...new Set(
            fieldsText
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== ''),
          ),
        ];
  if (fields !== undefined) {
    const bad = fields.find((f) => !(FLAG_FIELDS as readonly string[]).includes(f));
    if (fields.length === 0 || bad !== undefined) {
      throw invalidParameter(
        'fields',
        `${bad === undefined ? 'no field named' : `"${bad.slice(0, 40)}" is not a field that can be flagged`}; give a comma list of ${FLAG_FIELDS.join(', ')}`,
      );
    }
  }
  const problem = problemText?.trim().toLowerCase();
  if (problem !== undefined && !(FLAG_PROBLEMS as readonly string[]).includes(problem)) {
    throw invalidParameter(
      'problem',
      `"${problemText!.slice(0, 40)}" is not one of ${FLAG_PROBLEMS.join(', ')}`,
    );
  }
  const dryRun = p.dryRun();
  const details = {
    ...(fields ? { fields } : {}),
    ...(problem ? { problem } : {}),
    ...commentParam(p),
  };
  const edit = await createEdit(deps, auth, dryRun, async (tx) => {
    const place = await placeOrNotFound(tx, id);
    return {
      type: 'flag',
      placeId: id,
      changes: [],
      details,
      latitude: place.latitude,
      longitude: place.longitude,
    };
  });
  return { suggested_edits: [edit], errors: [] };
}

const MAX_DUPLICATES = 10;

/**
 * `POST /places/{fsq_place_id}/suggest/merge`: the places in `duplicate_fsq_place_ids` are the same as this
 * one; when accepted they are taken out of the store, and this place stays.
 */
export async function suggestMerge(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<SuggestResponse> {
  const p = new ParamReader(params, ['fsq_place_id', 'duplicate_fsq_place_ids', 'comment', 'dry_run']);
  const id = placeIdParam(p);
  const ids = parseIdList(
    'duplicate_fsq_place_ids',
    p.required('duplicate_fsq_place_ids', 'comma list of the ids of the places that duplicate this one'),
  );
  if (ids.length === 0) throw invalidParameter('duplicate_fsq_place_ids', 'give at least one place id');
  if (ids.length > MAX_DUPLICATES)
    throw invalidParameter('duplicate_fsq_place_ids', `at most ${MAX_DUPLICATES} ids`);
  if (ids.includes(id)) throw invalidParameter('duplicate_fsq_place_ids', 'a place cannot duplicate itself');
  const dryRun = p.dryRun();
  const details = { duplicate_fsq_place_ids: ids, ...commentParam(p) };
  const edit = await createEdit(deps, auth, dryRun, async (tx) => {
    const place = await placeOrNotFound(tx, id);
    const found = await findPlaces(tx, ids);
    const missing = ids.find((d) => !found.has(d));
    if (missing !== undefined) {
      throw invalidParameter(
        'duplicate_fsq_place_ids',
        `no place has fsq_place_id "${missing.slice(0, 64)}"`,
      );
    }
    const changes: Change[] = ids.map((d) => ({ fsq_place_id: d, field: MERGED_INTO, from: null, to: id }));
    return {
      type: 'merge',
      placeId: id,
      changes,
      details,
      latitude: place.latitude,
      longitude: place.longitude,
    };
  });
  return { suggested_edits: [edit], errors: [] };
}
