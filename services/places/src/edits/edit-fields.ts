import type { PlacesDeps } from '../deps.ts';
import { conflictingParameters, invalidParameter } from '../errors.ts';
import { parseIdList } from '../search/params.ts';
import type { PlaceRow } from '../store/places-read.ts';
import { type EditableField, fieldValue, sameValue } from './changes.ts';
import type { ParamReader } from './params.ts';
import type { Change, Json } from './types.ts';
import * as v from './values.ts';

/**
 * `POST /places/{id}/suggest/edit`: the reference's parameters, each checked against the place schema and
 * turned into changes {field, from, to} against the place as it is now. Values equal to the current ones are
 * left out; an edit that changes nothing is refused.
 */
type Parse = (name: string, text: string, deps: PlacesDeps) => Json;

const SETTERS: Record<string, { field: EditableField; parse: Parse }> = {
  name: { field: 'name', parse: (n, t) => v.plainText(n, t, 200) },
  latitude: { field: 'latitude', parse: (_n, t) => v.coordinate('latitude', t) },
  longitude: { field: 'longitude', parse: (_n, t) => v.coordinate('longitude', t) },
  address: { field: 'address', parse: (n, t) => v.plainText(n, t, 200) },
  locality: { field: 'locality', parse: (n, t) => v.plainText(n, t, 100) },
  region: { field: 'region', parse: (n, t) => v.plainText(n, t, 100) },
  postcode: { field: 'postcode', parse: (n, t) => v.plainText(n, t, 20) },
  country_code: { field: 'country', parse: (n, t, d) => v.countryCode(n, t, d.gazetteer()) },
  tel: { field: 'tel', parse: (n, t) => v.telephone(n, t) },
  website: { field: 'website', parse: (n, t) => v.website(n, t) },
  email: { field: 'email', parse: (n, t) => v.email(n, t) },
  description: { field: 'description', parse: (n, t) => v.plainText(n, t, 300) },
  hours: { field: 'hours', parse: (n, t) => v.hours(n, t).map((h) => ({ ...h })) },
  facebook_url: { field: 'facebook_id', parse: (n, t) => v.facebookId(n, t) },
  instagram: { field: 'instagram', parse: (n, t) => v.handle(n, t) },
  twitter: { field: 'twitter', parse: (n, t) => v.handle(n, t) },
};

/** What unset_fields may name, and the field each clears. Name, position and country cannot be cleared. */
const UNSETTABLE: Record<string, EditableField> = {
  address: 'address',
  locality: 'locality',
  region: 'region',
  postcode: 'postcode',
  tel: 'tel',
  website: 'website',
  email: 'email',
  description: 'description',
  hours: 'hours',
  facebook_url: 'facebook_id',
  instagram: 'instagram',
  twitter: 'twitter',
  chains: 'fsq_chain_ids',
};

const LIST_PARAMETERS = [
  'add_fsq_category_ids',
  'remove_fsq_category_ids',
  'primary_fsq_category_id',
  'add_fsq_chain_ids',
  'remove_fsq_chain_ids',
  'primary_fsq_chain_id',
  'chains',
  'unset_fields',
];

/** Reference parameters for data this store does not keep: refused by name rather than silently dropped. */
export const NOT_STORED: Record<string, string> = {
  menu: 'menus',
  parent_id: 'parent places',
  is_private_place: 'private places (suggest a removal with reason PRIVATE instead)',
  add_attributes: 'attributes',
  remove_attributes: 'attributes',
  attributes: 'attributes',
};

export const EDIT_PARAMETERS = [
  ...Object.keys(SETTERS),
  ...LIST_PARAMETERS,
  ...Object.keys(NOT_STORED),
  'comment',
  'dry_run',
];

export function refuseNotStored(params: ParamReader): void {
  for (const [name, what] of Object.entries(NOT_STORED)) {
    if (params.has(name)) {
      throw invalidParameter(name, `this server does not store ${what}; leave ${name} out`);
    }
  }
}

const MAX_CATEGORIES = 10;

function categoryList(params: ParamReader, current: string[], deps: PlacesDeps): string[] | undefined {
  const reference = deps.reference();
  const add = params.text('add_fsq_category_ids');
  const remove = params.text('remove_fsq_category_ids');
  const primary = params.text('primary_fsq_category_id');
  if (add === undefined && remove === undefined && primary === undefined) return undefined;
  let list = [...current];
  if (remove !== undefined) {
    for (const id of parseIdList('remove_fsq_category_ids', remove)) {
      // A real id (as answers show categories) removes the stored categories that are that real category.
      const real = reference.fsq.resolve(id)?.id;
      const gone = list.filter(
        (c) => c === id || (real !== undefined && reference.realCategory(c)?.id === real),
      );
      if (gone.length === 0) {
        throw invalidParameter('remove_fsq_category_ids', `the place has no category "${id.slice(0, 40)}"`);
      }
      list = list.filter((c) => !gone.includes(c));
    }
  }
  if (add !== undefined) {
    for (const id of v.categoryIds('add_fsq_category_ids', add, reference))
      if (!list.includes(id)) list.push(id);
  }
  if (primary !== undefined) {
    const [id, ...more] = v.categoryIds('primary_fsq_category_id', primary, reference);
    if (more.length > 0) throw invalidParameter('primary_fsq_category_id', 'give one category id');
    list = [id!, ...list.filter((c) => c !== id)];
  }
  if (list.length > MAX_CATEGORIES) {
    throw invalidParameter('add_fsq_category_ids', `a place has at most ${MAX_CATEGORIES} categories`);
  }
  return list;
}

function chainList(params: ParamReader, current: string[], deps: PlacesDeps): string[] | undefined {
  const reference = deps.reference();
  const replace = params.text('chains');
  const add = params.text('add_fsq_chain_ids');
  const remove = params.text('remove_fsq_chain_ids');
  const primary = params.text('primary_fsq_chain_id');
  if (replace !== undefined) {
    for (const other of ['add_fsq_chain_ids', 'remove_fsq_chain_ids', 'primary_fsq_chain_id']) {
      if (params.has(other)) throw conflictingParameters('chains', other, 'chains replaces the whole list');
    }
    return v.chainIds('chains', replace, reference);
  }
  if (add === undefined && remove === undefined && primary === undefined) return undefined;
  let list = [...current];
  if (remove !== undefined) {
    for (const id of parseIdList('remove_fsq_chain_ids', remove)) {
      if (!list.includes(id)) {
        throw invalidParameter('remove_fsq_chain_ids', `the place has no chain "${id.slice(0, 40)}"`);
      }
      list = list.filter((c) => c !== id);
    }
  }
  if (add !== undefined) {
    for (const id of v.chainIds('add_fsq_chain_ids', add, reference)) if (!list.includes(id)) list.push(id);
  }
  if (primary !== undefined) {
    const ids = v.chainIds('primary_fsq_chain_id', primary, reference);
    if (ids.length !== 1) throw invalidParameter('primary_fsq_chain_id', 'give one chain id');
    list = [ids[0]!, ...list.filter((c) => c !== ids[0])];
  }
  return list;
}

/** The changes an edit's parameters make to `place`, each value checked; a 400 naming the parameter otherwise. */
export function editChanges(params: ParamReader, place: PlaceRow, deps: PlacesDeps): Change[] {
  refuseNotStored(params);
  const proposed = new Map<EditableField, { parameter: string; value: Json }>();
  for (const [parameter, setter] of Object.entries(SETTERS)) {
    const text = params.text(parameter);
    if (text !== undefined)
      proposed.set(setter.field, { parameter, value: setter.parse(parameter, text, deps) });
  }
  const unset = params.text('unset_fields');
  if (unset !== undefined) {
    const names = unset
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (names.length === 0)
      throw invalidParameter('unset_fields', 'give field names, e.g. unset_fields=tel,website');
    for (const name of names) {
      const field = UNSETTABLE[name];
      if (!field) {
        throw invalidParameter(
          'unset_fields',
          `"${name.slice(0, 40)}" cannot be cleared; unset_fields takes ${Object.keys(UNSETTABLE).join(', ')}`,
        );
      }
      const given = proposed.get(field);
      if (given)
        throw conflictingParameters(given.parameter, 'unset_fields', `${name} is both set and cleared`);
      if (field === 'fsq_chain_ids' && LIST_PARAMETERS.some((p) => p.includes('chain') && params.has(p))) {
        throw conflictingParameters('chains', 'unset_fields', 'chains is both changed and cleared');
      }
      proposed.set(field, { parameter: 'unset_fields', value: field === 'fsq_chain_ids' ? [] : null });
    }
  }
  const categories = categoryList(params, place.fsq_category_ids, deps);
  if (categories) proposed.set('fsq_category_ids', { parameter: 'add_fsq_category_ids', value: categories });
  const chains = chainList(params, place.fsq_chain_ids, deps);
  if (chains) proposed.set('fsq_chain_ids', { parameter: 'chains', value: chains });

  const changes: Change[] = [];
  for (const [field, { value }] of proposed) {
    const from = fieldValue(place, field);
    if (!sameValue(from, value)) changes.push({ fsq_place_id: place.fsq_place_id, field, from, to: value });
  }
  if (changes.length === 0) {
    throw invalidParameter(
      proposed.size === 0 ? 'name' : [...proposed.values()][0]!.parameter,
      proposed.size === 0
        ? `the edit changes nothing: give at least one field (${Object.keys(SETTERS).join(', ')}, the category and chain lists, or unset_fields)`
        : 'the edit changes nothing: every suggested value is already the place’s current value',
    );
  }
  return changes;
}

/** The parsers of single fields, for the new-place suggestion. */
export const FIELD_SETTERS = SETTERS;
