import { Reply } from '../envelope.ts';
import { invalidParameter } from '../errors.ts';
import { HEX_ID } from '../ids.ts';
import { pageParams, paginate, qBool, qEnum, qList, qString } from '../query.ts';
import { type EdgeRoute, route } from '../route.ts';
import { eachItem, oneOrMany } from '../schema.ts';
import {
  changeFirewallRule,
  createFirewallRules,
  deleteFirewallRule,
  FIREWALL_ACTIONS,
  firewallRuleInput,
  firewallRuleOf,
  firewallRulePatch,
  firewallRuleSchema,
  renderRule,
} from './service.ts';
import { listFirewallRules } from './store.ts';

const read = { zone: 'firewall', level: 'read' } as const;
const edit = { zone: 'firewall', level: 'edit' } as const;
const list = { type: 'array', items: firewallRuleSchema };
const BASE = '/zones/:zone_id/firewall/rules';
const idList = qList('Firewall rule ids', HEX_ID, 'is not a firewall rule id (32 hex characters)');
const deleted = {
  type: 'array',
  items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};

export const firewallRuleRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: BASE,
    summary: 'Firewall rules, in evaluation order',
    access: read,
    query: {
      id: qString('Only this rule'),
      action: qEnum(FIREWALL_ACTIONS, 'Only rules with this action'),
      description: qString('Only rules whose description contains this text'),
      paused: qBool('Only paused (true) or active (false) rules'),
      ...pageParams(25, 5, 100),
    },
    result: list,
    list: true,
    async handle({ deps, zone, query }) {
      const all = (await listFirewallRules(deps.db, zone.id)).filter(
        (r) =>
          (query.id === undefined || r.id === query.id) &&
          (query.action === undefined || r.action === query.action) &&
          (query.description === undefined || r.description.includes(query.description)) &&
          (query.paused === undefined || r.paused === query.paused),
      );
      const page = paginate(all, query.page, query.per_page);
      return new Reply(await Promise.all(page.items.map((r) => renderRule(deps.db, r))), page.info);
    },
  }),
  route({
    method: 'POST',
    url: BASE,
    summary: 'Create firewall rules (an array; each with a filter id or a new filter expression)',
    access: edit,
    body: oneOrMany(firewallRuleInput, 100),
    result: list,
    async handle({ deps, zone, body }) {
      return deps.db.transaction(async (tx) => {
        const made = await createFirewallRules(tx, deps, zone, eachItem(body));
        return Promise.all(made.map((r) => renderRule(tx, r)));
      });
    },
  }),
  ...(['PUT', 'PATCH'] as const).map((method) =>
    route({
      method,
      url: BASE,
      summary:
        method === 'PUT'
          ? 'Update several firewall rules (an array with ids)'
          : 'Change priorities or other fields of several rules',
      access: edit,
      body: oneOrMany(method === 'PUT' ? firewallRuleInput : firewallRulePatch, 100),
      result: list,
      async handle({ deps, zone, body, path }) {
        return deps.db.transaction(async (tx) => {
          const out = [];
          for (const { input, pointer } of eachItem(body)) {
            if (input.id === undefined)
              throw invalidParameter('id', `${pointer || '/'}: each firewall rule needs its id`);
            out.push(
              await renderRule(
                tx,
                await changeFirewallRule(tx, deps, zone, input.id, input, pointer, `${path}/${input.id}`),
              ),
            );
          }
          return out;
        });
      },
    }),
  ),
  route({
    method: 'DELETE',
    url: BASE,
    summary: 'Delete several firewall rules (?id=…&id=…)',
    access: edit,
    query: { id: idList, delete_filter_if_unused: qBool('Also delete filters no rule uses any more') },
    result: deleted,
    async handle({ deps, zone, query, path }) {
      if (query.id.length === 0)
        throw invalidParameter('id', 'Query parameter id is required: the firewall rules to delete');
      return deps.db.transaction(async (tx) => {
        const out = [];
        for (const id of query.id)
          out.push(
            await deleteFirewallRule(tx, zone, id, `${path}/${id}`, query.delete_filter_if_unused === true),
          );
        return out;
      });
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/:rule_id`,
    summary: 'A firewall rule',
    access: read,
    result: firewallRuleSchema,
    handle: async ({ deps, zone, params, path }) =>
      renderRule(deps.db, await firewallRuleOf(deps.db, zone, params.rule_id!, path)),
  }),
  route({
    method: 'PUT',
    url: `${BASE}/:rule_id`,
    summary: 'Update a firewall rule',
    access: edit,
    body: firewallRuleInput,
    result: firewallRuleSchema,
    async handle({ deps, zone, params, body, path }) {
      return deps.db.transaction(async (tx) =>
        renderRule(tx, await changeFirewallRule(tx, deps, zone, params.rule_id!, body, '', path)),
      );
    },
  }),
  route({
    method: 'PATCH',
    url: `${BASE}/:rule_id`,
    summary: 'Change some fields of a firewall rule (answers an array, as the real API)',
    access: edit,
    body: firewallRulePatch,
    result: list,
    async handle({ deps, zone, params, body, path }) {
      return deps.db.transaction(async (tx) => [
        await renderRule(tx, await changeFirewallRule(tx, deps, zone, params.rule_id!, body, '', path)),
      ]);
    },
  }),
  route({
    method: 'DELETE',
    url: `${BASE}/:rule_id`,
    summary: 'Delete a firewall rule',
    access: edit,
    query: { delete_filter_if_unused: qBool('Also delete its filter when no other rule uses it') },
    result: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    async handle({ deps, zone, params, query, path }) {
      return deps.db.transaction((tx) =>
        deleteFirewallRule(tx, zone, params.rule_id!, path, query.delete_filter_if_unused === true),
      );
    },
  }),
];
