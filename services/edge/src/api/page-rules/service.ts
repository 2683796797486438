import type { EdgeDeps } from '../../deps.ts';
import { invalidValue, noSuchObject, notEntitled } from '../errors.ts';
import { isHexId, newHexId } from '../ids.ts';
import { anyValue, arr, int, obj, oneOf, optional, pointerTo, type Static, str } from '../schema.ts';
import { atLeast, PAGE_RULE_QUOTA, planLabel } from '../zones/plans.ts';
import type { Zone } from '../zones/store.ts';
import { findPageRule, listPageRules, type PageRule, type PageRuleAction, savePageRule } from './store.ts';

const target = obj({
  target: oneOf(['url']),
  constraint: obj({
    operator: oneOf(['matches', 'contains', 'equals', 'not_equal', 'not_contain']),
    value: str({
      min: 1,
      max: 2048,
      pattern: /^[^\s]+$/,
      patternHint: 'a URL pattern without spaces (up to four *)',
    }),
  }),
});

const action = obj({
  id: str({ min: 1, max: 64 }),
  value: optional(anyValue('The setting value (a string for the actions Cairn supports)')),
});

/** The page-rule actions Cairn keeps: the security-relevant ones (reference §2.5). */
const ACTIONS: Record<string, { values?: readonly string[]; minPlan?: 'pro' }> = {
  disable_security: {},
  waf: { values: ['on', 'off'], minPlan: 'pro' },
  security_level: { values: ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'] },
};

const fields = {
  targets: arr(target, { min: 1, max: 1, description: 'Exactly one URL target' }),
  actions: arr(action, { min: 1, max: 20 }),
  priority: optional(int(1, 1_000_000, 'Higher wins (default 1)')),
  status: optional(oneOf(['active', 'disabled'], 'Default disabled')),
};
export const pageRuleInput = obj(fields);
export const pageRulePatch = obj({
  targets: optional(fields.targets),
  actions: optional(fields.actions),
  priority: fields.priority,
  status: fields.status,
});
type PageRuleInput = Static<typeof pageRuleInput>;

function checkActions(zone: Zone, actions: Static<typeof action>[], base: string): PageRuleAction[] {
  const seen = new Set<string>();
  return actions.map((a, i) => {
    const at = pointerTo(base, i);
    const def = ACTIONS[a.id];
    if (!def)
      throw invalidValue(
        pointerTo(at, 'id'),
        a.id,
        `Cairn keeps the page rule actions ${Object.keys(ACTIONS).join(', ')}`,
      );
    if (seen.has(a.id)) throw invalidValue(pointerTo(at, 'id'), a.id, 'this action is given twice');
    seen.add(a.id);
    if (def.minPlan && !atLeast(zone.plan, def.minPlan)) {
      throw notEntitled(
        `not entitled to the ${a.id} page rule action: it needs the Pro plan or above, and this zone is on ${planLabel(zone.plan)}`,
        pointerTo(at, 'id'),
      );
    }
    if (!def.values) {
      if (a.value !== undefined)
        throw invalidValue(pointerTo(at, 'value'), a.value, `the ${a.id} action takes no value`);
      return { id: a.id };
    }
    if (typeof a.value !== 'string' || !def.values.includes(a.value)) {
      throw invalidValue(
        pointerTo(at, 'value'),
        a.value ?? null,
        `the ${a.id} action needs one of ${def.values.join(', ')}`,
      );
    }
    return { id: a.id, value: a.value };
  });
}

function checkTargets(input: PageRuleInput['targets']) {
  input.forEach((t, i) => {
    const stars = t.constraint.value.split('*').length - 1;
    if (stars > 4)
      throw invalidValue(
        `/targets/${i}/constraint/value`,
        t.constraint.value,
        'a URL pattern has at most four *',
      );
  });
  return input;
}

export function pageRuleJson(r: PageRule) {
  return {
    id: r.id,
    targets: r.targets,
    actions: r.actions,
    priority: r.priority,
    status: r.status,
    created_on: r.createdOn.toISOString(),
    modified_on: r.modifiedOn.toISOString(),
  };
}

export const pageRuleSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    targets: fields.targets,
    actions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, value: { type: 'string' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
    priority: { type: 'integer' },
    status: { type: 'string', enum: ['active', 'disabled'] },
    created_on: { type: 'string' },
    modified_on: { type: 'string' },
  },
  required: ['id', 'targets', 'actions', 'priority', 'status', 'created_on', 'modified_on'],
  additionalProperties: false,
};

export async function pageRuleOf(deps: Pick<EdgeDeps, 'db'>, zone: Zone, id: string, path: string) {
  if (!isHexId(id)) throw noSuchObject(path, `"${id}" is not a page rule id (32 hex characters)`, 400);
  const r = await findPageRule(deps.db, zone.id, id);
  if (!r) throw noSuchObject(path, `No page rule ${id} in zone ${zone.name}`);
  return r;
}

export async function createPageRule(deps: Pick<EdgeDeps, 'db' | 'clock'>, zone: Zone, input: PageRuleInput) {
  const count = (await listPageRules(deps.db, zone.id)).length;
  if (count >= PAGE_RULE_QUOTA[zone.plan]) {
    throw notEntitled(
      `not entitled to more than ${PAGE_RULE_QUOTA[zone.plan]} page rules on the ${planLabel(zone.plan)} plan`,
    );
  }
  const now = deps.clock.now();
  const rule: PageRule = {
    id: newHexId(),
    zoneId: zone.id,
    targets: checkTargets(input.targets),
    actions: checkActions(zone, input.actions, '/actions'),
    priority: input.priority ?? 1,
    status: input.status ?? 'disabled',
    createdOn: now,
    modifiedOn: now,
  };
  await savePageRule(deps.db, rule);
  return rule;
}

export async function changePageRule(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  zone: Zone,
  id: string,
  input: Static<typeof pageRulePatch>,
  path: string,
) {
  const existing = await pageRuleOf(deps, zone, id, path);
  const rule: PageRule = {
    ...existing,
    targets: input.targets ? checkTargets(input.targets) : existing.targets,
    actions: input.actions ? checkActions(zone, input.actions, '/actions') : existing.actions,
    priority: input.priority ?? existing.priority,
    status: input.status ?? existing.status,
    modifiedOn: deps.clock.now(),
  };
  await savePageRule(deps.db, rule);
  return rule;
}
