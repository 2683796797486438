import { Reply } from '../envelope.ts';
import { invalidParameter } from '../errors.ts';
import { HEX_ID } from '../ids.ts';
import { pageParams, paginate, qBool, qList, qString } from '../query.ts';
import { type EdgeRoute, route } from '../route.ts';
import { eachItem, oneOrMany } from '../schema.ts';
import {
  createFilters,
  deleteFilter,
  filterInput,
  filterJson,
  filterOf,
  filterSchema,
  updateFilter,
} from './service.ts';
import { listFilters } from './store.ts';

const read = { zone: 'firewall', level: 'read' } as const;
const edit = { zone: 'firewall', level: 'edit' } as const;
const list = { type: 'array', items: filterSchema };
const idList = qList('Filter ids', HEX_ID, 'is not a filter id (32 hex characters)');
const deleted = {
  type: 'array',
  items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};

export const filterRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: '/zones/:zone_id/filters',
    summary: 'Filters (firewall rule expressions)',
    access: read,
    query: {
      id: qString('Only this filter'),
      paused: qBool('Only paused (true) or active (false) filters'),
      expression: qString('Only filters whose expression contains this text'),
      description: qString('Only filters whose description contains this text'),
      ref: qString('Only filters with this ref'),
      ...pageParams(25, 5, 100),
    },
    result: list,
    list: true,
    async handle({ deps, zone, query }) {
      const all = (await listFilters(deps.db, zone.id)).filter(
        (f) =>
          (query.id === undefined || f.id === query.id) &&
          (query.paused === undefined || f.paused === query.paused) &&
          (query.expression === undefined || f.expression.includes(query.expression)) &&
          (query.description === undefined || f.description.includes(query.description)) &&
          (query.ref === undefined || f.ref === query.ref),
      );
      const page = paginate(all.map(filterJson), query.page, query.per_page);
      return new Reply(page.items, page.info);
    },
  }),
  route({
    method: 'POST',
    url: '/zones/:zone_id/filters',
    summary: 'Create filters (an array)',
    access: edit,
    body: oneOrMany(filterInput, 100),
    result: list,
    async handle({ deps, zone, body }) {
      const made = await deps.db.transaction((tx) => createFilters(tx, deps, zone, eachItem(body)));
      return made.map(filterJson);
    },
  }),
  route({
    method: 'PUT',
    url: '/zones/:zone_id/filters',
    summary: 'Update several filters (an array with ids)',
    access: edit,
    body: oneOrMany(filterInput, 100),
    result: list,
    async handle({ deps, zone, body, path }) {
      return deps.db.transaction(async (tx) => {
        const out = [];
        for (const { input, pointer } of eachItem(body)) {
          if (input.id === undefined)
            throw invalidParameter('id', `${pointer || '/'}: each filter needs its id`);
          out.push(
            filterJson(await updateFilter(tx, deps, zone, input.id, input, pointer, `${path}/${input.id}`)),
          );
        }
        return out;
      });
    },
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id/filters',
    summary: 'Delete several filters (?id=…&id=…)',
    access: edit,
    query: { id: idList },
    result: deleted,
    async handle({ deps, zone, query, path }) {
      if (query.id.length === 0)
        throw invalidParameter('id', 'Query parameter id is required: the filters to delete');
      await deps.db.transaction(async (tx) => {
        for (const id of query.id) await deleteFilter(tx, zone, id, `${path}/${id}`);
      });
      return query.id.map((id) => ({ id }));
    },
  }),
  route({
    method: 'GET',
    url: '/zones/:zone_id/filters/:filter_id',
    summary: 'A filter',
    access: read,
    result: filterSchema,
    handle: async ({ deps, zone, params, path }) =>
      filterJson(await filterOf(deps.db, zone, params.filter_id!, path)),
  }),
  route({
    method: 'PUT',
    url: '/zones/:zone_id/filters/:filter_id',
    summary: 'Update a filter',
    access: edit,
    body: filterInput,
    result: filterSchema,
    handle: async ({ deps, zone, params, body, path }) =>
      filterJson(await updateFilter(deps.db, deps, zone, params.filter_id!, body, '', path)),
  }),
  route({
    method: 'DELETE',
    url: '/zones/:zone_id/filters/:filter_id',
    summary: 'Delete a filter (not while a firewall rule uses it)',
    access: edit,
    result: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    async handle({ deps, zone, params, path }) {
      await deleteFilter(deps.db, zone, params.filter_id!, path);
      return { id: params.filter_id };
    },
  }),
];
