import { Reply } from '../envelope.ts';
import { pageRuleNotices } from '../migration/notices.ts';
import { qEnum } from '../query.ts';
import { type EdgeRoute, route } from '../route.ts';
import {
  changePageRule,
  createPageRule,
  pageRuleInput,
  pageRuleJson,
  pageRuleOf,
  pageRulePatch,
  pageRuleSchema,
} from './service.ts';
import { deletePageRuleRow, listPageRules } from './store.ts';

const read = { zone: 'page_rules', level: 'read' } as const;
const edit = { zone: 'page_rules', level: 'edit' } as const;
const BASE = '/zones/:zone_id/pagerules';

export const pageRuleRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: BASE,
    summary: 'Page rules (a plain array, highest priority first)',
    access: read,
    query: {
      status: qEnum(['active', 'disabled'], 'Only page rules with this status'),
      order: qEnum(['status', 'priority'], 'Sort field (default priority)'),
      direction: qEnum(['asc', 'desc'], 'Sort direction (default desc)'),
      match: qEnum(['any', 'all'], 'Whether all or any filter must match'),
    },
    result: { type: 'array', items: pageRuleSchema },
    async handle({ deps, zone, query }) {
      let rules = (await listPageRules(deps.db, zone.id)).filter(
        (r) => query.status === undefined || r.status === query.status,
      );
      if (query.order === 'status')
        rules = [...rules].sort((a, b) => a.status.localeCompare(b.status) || b.priority - a.priority);
      if (query.direction === 'asc') rules = [...rules].reverse();
      return rules.map(pageRuleJson);
    },
  }),
  route({
    method: 'POST',
    url: BASE,
    summary: 'Create a page rule',
    access: edit,
    body: pageRuleInput,
    result: pageRuleSchema,
    async handle({ deps, zone, body }) {
      const rule = await createPageRule(deps, zone, body);
      return new Reply(pageRuleJson(rule), undefined, pageRuleNotices(zone, rule));
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/:pagerule_id`,
    summary: 'A page rule',
    access: read,
    result: pageRuleSchema,
    handle: async ({ deps, zone, params, path }) =>
      pageRuleJson(await pageRuleOf(deps, zone, params.pagerule_id!, path)),
  }),
  route({
    method: 'PUT',
    url: `${BASE}/:pagerule_id`,
    summary: 'Replace a page rule',
    access: edit,
    body: pageRuleInput,
    result: pageRuleSchema,
    async handle({ deps, zone, params, body, path }) {
      const rule = await changePageRule(
        deps,
        zone,
        params.pagerule_id!,
        { priority: 1, status: 'disabled', ...body },
        path,
      );
      return new Reply(pageRuleJson(rule), undefined, pageRuleNotices(zone, rule));
    },
  }),
  route({
    method: 'PATCH',
    url: `${BASE}/:pagerule_id`,
    summary: 'Change some fields of a page rule',
    access: edit,
    body: pageRulePatch,
    result: pageRuleSchema,
    async handle({ deps, zone, params, body, path }) {
      const rule = await changePageRule(deps, zone, params.pagerule_id!, body, path);
      return new Reply(pageRuleJson(rule), undefined, pageRuleNotices(zone, rule));
    },
  }),
  route({
    method: 'DELETE',
    url: `${BASE}/:pagerule_id`,
    summary: 'Delete a page rule',
    access: edit,
    result: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    async handle({ deps, zone, params, path }) {
      await pageRuleOf(deps, zone, params.pagerule_id!, path);
      await deletePageRuleRow(deps.db, zone.id, params.pagerule_id!);
      return { id: params.pagerule_id };
    },
  }),
];
