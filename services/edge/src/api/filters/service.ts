import type { Queryable } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import { invalidBody, invalidValue, noSuchObject } from '../errors.ts';
import { isHexId, newHexId } from '../ids.ts';
import { bool, hexId, ignored, obj, optional, pointerTo, type Static, str } from '../schema.ts';
import type { Zone } from '../zones/store.ts';
import { checkFilterExpression } from './expression.ts';
import { deleteFilterRow, type Filter, filterUsers, findFilter, saveFilter } from './store.ts';

export const filterFields = {
  id: optional(hexId()),
  expression: str({ min: 1, description: 'A Rules-language expression' }),
  paused: optional(bool()),
  description: optional(str({ max: 500 })),
  ref: optional(str({ max: 50 })),
  created_on: ignored({ type: 'string' }),
  modified_on: ignored({ type: 'string' }),
};
export const filterInput = obj(filterFields);
export type FilterInput = Static<typeof filterInput>;

export function filterJson(f: Filter) {
  return { id: f.id, expression: f.expression, paused: f.paused, description: f.description, ref: f.ref };
}

export const filterSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    expression: { type: 'string' },
    paused: { type: 'boolean' },
    description: { type: 'string' },
    ref: { type: 'string' },
  },
  required: ['id', 'expression', 'paused', 'description', 'ref'],
  additionalProperties: false,
};

export async function filterOf(db: Queryable, zone: Zone, id: string, path: string): Promise<Filter> {
  if (!isHexId(id)) throw noSuchObject(path, `"${id}" is not a filter id (32 hex characters)`, 400);
  const f = await findFilter(db, zone.id, id);
  if (!f) throw noSuchObject(path, `No filter ${id} in zone ${zone.name}`);
  return f;
}

/** Creates filters (all or none); `pointer` of each item is `/<i>` for arrays. */
export async function createFilters(
  db: Queryable,
  deps: Pick<EdgeDeps, 'clock'>,
  zone: Zone,
  inputs: readonly { input: FilterInput; pointer: string }[],
): Promise<Filter[]> {
  const now = deps.clock.now();
  const out: Filter[] = [];
  for (const { input, pointer } of inputs) {
    if (input.id !== undefined)
      throw invalidValue(
        pointerTo(pointer, 'id'),
        input.id,
        'a new filter gets its id from Cairn; leave id out',
      );
    checkFilterExpression(input.expression, pointerTo(pointer, 'expression'), zone.plan);
    const f: Filter = {
      id: newHexId(),
      zoneId: zone.id,
      expression: input.expression,
      paused: input.paused ?? false,
      description: input.description ?? '',
      ref: input.ref ?? '',
      createdOn: now,
      modifiedOn: now,
    };
    await saveFilter(db, f);
    out.push(f);
  }
  return out;
}

export async function updateFilter(
  db: Queryable,
  deps: Pick<EdgeDeps, 'clock'>,
  zone: Zone,
  id: string,
  input: FilterInput,
  pointer: string,
  path: string,
): Promise<Filter> {
  const existing = await filterOf(db, zone, id, path);
  if (input.id !== undefined && input.id !== id)
    throw invalidValue(pointerTo(pointer, 'id'), input.id, `it must be ${id}`);
  checkFilterExpression(input.expression, pointerTo(pointer, 'expression'), zone.plan);
  const f: Filter = {
    ...existing,
    expression: input.expression,
    paused: input.paused ?? existing.paused,
    description: input.description ?? existing.description,
    ref: input.ref ?? existing.ref,
    modifiedOn: deps.clock.now(),
  };
  await saveFilter(db, f);
  return f;
}

export async function deleteFilter(db: Queryable, zone: Zone, id: string, path: string): Promise<void> {
  await filterOf(db, zone, id, path);
  const users = await filterUsers(db, id);
  if (users.length > 0) {
    throw invalidBody(
      '',
      `filter ${id} is used by firewall rule ${users.join(', ')}; delete or change the rule first`,
    );
  }
  await deleteFilterRow(db, zone.id, id);
}
