import type { AuthContext } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter } from '../errors.ts';
import { matchCandidates } from '../store/places-read.ts';
import { FIELD_SETTERS, NOT_STORED, refuseNotStored } from './edit-fields.ts';
import { type ApiParams, ParamReader } from './params.ts';
import type { EditView } from './render.ts';
import { commentParam, createEdit } from './suggest.ts';
import type { Change, Json } from './types.ts';
import { categoryIds, chainIds } from './values.ts';

/** Within this distance, a place with a similar name is reported as `matched_fsq_place`. */
const MATCH_RADIUS_M = 150;
const MATCH_SIMILARITY = 0.5;

export interface SuggestPlaceResponse {
  new_place_suggestion: EditView;
  matched_fsq_place: { fsq_place_id: string; name: string } | null;
  errors: { message: string }[];
  /** The same suggestion, in the shape the other suggest endpoints answer with. */
  suggested_edits: EditView[];
}

const FIELDS = Object.keys(FIELD_SETTERS).filter((name) => name !== 'name');

/**
 * `POST /places/suggest/place`: a place that is not in the store. Name, latitude and longitude are required
 * (a place is stored at a point). A nearby place with a similar name is returned as `matched_fsq_place` and
 * recorded on the suggestion for voters; the suggestion is still made.
 */
export async function suggestPlace(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<SuggestPlaceResponse> {
  const p = new ParamReader(params, [
    'name',
    ...FIELDS,
    'categories',
    'chains',
    ...Object.keys(NOT_STORED),
    'comment',
    'dry_run',
  ]);
  refuseNotStored(p);
  const name = FIELD_SETTERS.name!.parse(
    'name',
    p.required('name', 'the name of the new place'),
    deps,
  ) as string;
  const changes: Change[] = [{ fsq_place_id: null, field: 'name', from: null, to: name }];
  for (const parameter of FIELDS) {
    const text = p.text(parameter);
    if (text === undefined) continue;
    const setter = FIELD_SETTERS[parameter]!;
    changes.push({
      fsq_place_id: null,
      field: setter.field,
      from: null,
      to: setter.parse(parameter, text, deps),
    });
  }
  const reference = deps.reference();
  const categories = p.text('categories');
  if (categories !== undefined) {
    changes.push({
      fsq_place_id: null,
      field: 'fsq_category_ids',
      from: null,
      to: categoryIds('categories', categories, reference),
    });
  }
  const chains = p.text('chains');
  if (chains !== undefined) {
    changes.push({
      fsq_place_id: null,
      field: 'fsq_chain_ids',
      from: null,
      to: chainIds('chains', chains, reference),
    });
  }
  const value = (field: string): Json | undefined => changes.find((c) => c.field === field)?.to;
  const latitude = value('latitude');
  const longitude = value('longitude');
  if (typeof latitude !== 'number')
    throw invalidParameter('latitude', 'latitude is required: where the new place is');
  if (typeof longitude !== 'number')
    throw invalidParameter('longitude', 'longitude is required: where the new place is');
  const details = commentParam(p);
  const dryRun = p.dryRun();
  let matched: { fsq_place_id: string; name: string } | null = null;
  const edit = await createEdit(deps, auth, dryRun, async (tx) => {
    const candidates = await matchCandidates(tx, name, { latitude, longitude }, MATCH_RADIUS_M);
    const best = candidates
      .filter((c) => c.name_similarity >= MATCH_SIMILARITY)
      .sort((a, b) => b.name_similarity - a.name_similarity)[0];
    if (best) matched = { fsq_place_id: best.fsq_place_id, name: best.name };
    return {
      type: 'new_place',
      placeId: null,
      changes,
      details,
      latitude,
      longitude,
      matchedPlaceId: best?.fsq_place_id ?? null,
    };
  });
  return { new_place_suggestion: edit, matched_fsq_place: matched, errors: [], suggested_edits: [edit] };
}
