import type { Queryable } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import { invalidValue, noSuchObject, notEntitled } from '../errors.ts';
import { createFilters, filterJson, filterSchema, updateFilter } from '../filters/service.ts';
import { deleteFilterRow, filterUsers, findFilter } from '../filters/store.ts';
import { isHexId, newHexId } from '../ids.ts';
import {
  arr,
  bool,
  hexId,
  ignored,
  int,
  nullable,
  obj,
  oneOf,
  optional,
  pointerTo,
  type Static,
  str,
} from '../schema.ts';
import { CUSTOM_RULE_QUOTA, planLabel } from '../zones/plans.ts';
import type { Zone } from '../zones/store.ts';
import {
  countFirewallRules,
  deleteFirewallRuleRow,
  type FirewallRule,
  findFirewallRule,
  saveFirewallRule,
} from './store.ts';

export const FIREWALL_ACTIONS = [
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
  'allow',
  'log',
  'bypass',
] as const;
export const BYPASS_PRODUCTS = [
  'zoneLockdown',
  'uaBlock',
  'bic',
  'hot',
  'securityLevel',
  'rateLimit',
  'waf',
] as const;

const filterRef = obj({
  id: optional(hexId('An existing filter')),
  expression: optional(str({ min: 1 })),
  paused: optional(bool()),
  description: optional(str({ max: 500 })),
  ref: optional(str({ max: 50 })),
});

const fields = {
  id: optional(hexId()),
  filter: filterRef,
  action: oneOf(FIREWALL_ACTIONS),
  products: optional(arr(oneOf(BYPASS_PRODUCTS), { unique: true, description: 'What bypass skips' })),
  priority: optional(
    nullable(int(0, 2_147_483_647, 'Lower numbers run first; rules without priority run last')),
  ),
  paused: optional(bool()),
  description: optional(str({ max: 500 })),
  ref: optional(str({ max: 50 })),
  created_on: ignored({ type: 'string' }),
  modified_on: ignored({ type: 'string' }),
};
export const firewallRuleInput = obj(fields);
export type FirewallRuleInput = Static<typeof firewallRuleInput>;

/** PATCH: change some fields (priority, paused, …) of existing rules. */
export const firewallRulePatch = obj({
  ...fields,
  id: optional(hexId()),
  filter: optional(filterRef),
  action: optional(fields.action),
});
export type FirewallRulePatch = Static<typeof firewallRulePatch>;

export function firewallRuleJson(rule: FirewallRule, filter: ReturnType<typeof filterJson>) {
  return {
    id: rule.id,
    paused: rule.paused,
    description: rule.description,
    action: rule.action,
    priority: rule.priority,
    filter,
    ...(rule.products.length > 0 ? { products: rule.products } : {}),
    ref: rule.ref,
    created_on: rule.createdOn.toISOString(),
    modified_on: rule.modifiedOn.toISOString(),
  };
}

export const firewallRuleSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    paused: { type: 'boolean' },
    description: { type: 'string' },
    action: { type: 'string', enum: [...FIREWALL_ACTIONS] },
    priority: { type: ['integer', 'null'] },
    filter: filterSchema,
    products: { type: 'array', items: { type: 'string' } },
    ref: { type: 'string' },
    created_on: { type: 'string' },
    modified_on: { type: 'string' },
  },
  required: ['id', 'paused', 'description', 'action', 'priority', 'filter', 'ref'],
  additionalProperties: false,
};

export async function renderRule(db: Queryable, rule: FirewallRule) {
  const filter = await findFilter(db, rule.zoneId, rule.filterId);
  if (!filter) throw new Error(`filter ${rule.filterId} of firewall rule ${rule.id} is missing`);
  return firewallRuleJson(rule, filterJson(filter));
}

export async function firewallRuleOf(
  db: Queryable,
  zone: Zone,
  id: string,
  path: string,
): Promise<FirewallRule> {
  if (!isHexId(id)) throw noSuchObject(path, `"${id}" is not a firewall rule id (32 hex characters)`, 400);
  const rule = await findFirewallRule(db, zone.id, id);
  if (!rule) throw noSuchObject(path, `No firewall rule ${id} in zone ${zone.name}`);
  return rule;
}

function checkAction(zone: Zone, action: string, products: readonly string[], pointer: string) {
  if (action === 'log' && zone.plan !== 'enterprise') {
    throw notEntitled(
      `not entitled to the log action: it needs the Enterprise plan, and this zone is on ${planLabel(zone.plan)}`,
      pointerTo(pointer, 'action'),
    );
  }
  if (action === 'bypass' && products.length === 0) {
    throw invalidValue(
      pointerTo(pointer, 'products'),
      products,
      'a bypass rule must name the products it bypasses',
    );
  }
  if (action !== 'bypass' && products.length > 0) {
    throw invalidValue(
      pointerTo(pointer, 'products'),
      products,
      'products can only be given with the bypass action',
    );
  }
}

/** The filter of a rule: an existing one by id, or a new one from an expression. */
async function resolveFilter(
  db: Queryable,
  deps: Pick<EdgeDeps, 'clock'>,
  zone: Zone,
  filter: FirewallRuleInput['filter'],
  pointer: string,
): Promise<string> {
  const at = pointerTo(pointer, 'filter');
  if (filter.id !== undefined && filter.expression === undefined) {
    const found = await findFilter(db, zone.id, filter.id);
    if (!found)
      throw invalidValue(pointerTo(at, 'id'), filter.id, `zone ${zone.name} has no filter with this id`);
    return found.id;
  }
  if (filter.id !== undefined)
    throw invalidValue(
      at,
      filter,
      'give either the id of an existing filter or a new filter expression, not both',
    );
  if (filter.expression === undefined) throw invalidValue(at, filter, 'it needs an id or an expression');
  const [made] = await createFilters(db, deps, zone, [
    {
      input: {
        expression: filter.expression,
        paused: filter.paused,
        description: filter.description,
        ref: filter.ref,
      },
      pointer: at,
    },
  ]);
  return made!.id;
}

export async function createFirewallRules(
  db: Queryable,
  deps: Pick<EdgeDeps, 'clock'>,
  zone: Zone,
  inputs: readonly { input: FirewallRuleInput; pointer: string }[],
): Promise<FirewallRule[]> {
  const quota = CUSTOM_RULE_QUOTA[zone.plan];
  if ((await countFirewallRules(db, zone.id)) + inputs.length > quota) {
    throw notEntitled(
      `not entitled to more than ${quota} firewall rules on the ${planLabel(zone.plan)} plan`,
    );
  }
  const now = deps.clock.now();
  const out: FirewallRule[] = [];
  for (const { input, pointer } of inputs) {
    if (input.id !== undefined)
      throw invalidValue(
        pointerTo(pointer, 'id'),
        input.id,
        'a new firewall rule gets its id from Cairn; leave id out',
      );
    const products = input.products ?? [];
    checkAction(zone, input.action, products, pointer);
    const filterId = await resolveFilter(db, deps, zone, input.filter, pointer);
    const rule: FirewallRule = {
      id: newHexId(),
      zoneId: zone.id,
      filterId,
      action: input.action,
      products,
      priority: input.priority ?? null,
      paused: input.paused ?? false,
      description: input.description ?? '',
      ref: input.ref ?? '',
      createdOn: now,
      modifiedOn: now,
    };
    await saveFirewallRule(db, rule);
    out.push(rule);
  }
  return out;
}

/** PUT (all fields, filter by id or expression) and PATCH (some fields) of one rule. */
export async function changeFirewallRule(
  db: Queryable,
  deps: Pick<EdgeDeps, 'clock'>,
  zone: Zone,
  id: string,
  input: FirewallRulePatch,
  pointer: string,
  path: string,
): Promise<FirewallRule> {
  const existing = await firewallRuleOf(db, zone, id, path);
  if (input.id !== undefined && input.id !== id)
    throw invalidValue(pointerTo(pointer, 'id'), input.id, `it must be ${id}`);
  const action = input.action ?? existing.action;
  const products =
    input.products ?? (input.action !== undefined && input.action !== 'bypass' ? [] : existing.products);
  checkAction(zone, action, products, pointer);
  let filterId = existing.filterId;
  if (input.filter) {
    if (input.filter.id === existing.filterId && input.filter.expression !== undefined) {
      // The rule's own filter, changed in place.
      await updateFilter(
        db,
        deps,
        zone,
        existing.filterId,
        {
          expression: input.filter.expression,
          paused: input.filter.paused,
          description: input.filter.description,
          ref: input.filter.ref,
        },
        pointerTo(pointer, 'filter'),
        path,
      );
    } else {
      filterId = await resolveFilter(db, deps, zone, input.filter, pointer);
    }
  }
  const rule: FirewallRule = {
    ...existing,
    filterId,
    action,
    products,
    priority: input.priority === undefined ? existing.priority : input.priority,
    paused: input.paused ?? existing.paused,
    description: input.description ?? existing.description,
    ref: input.ref ?? existing.ref,
    modifiedOn: deps.clock.now(),
  };
  await saveFirewallRule(db, rule);
  return rule;
}

export async function deleteFirewallRule(
  db: Queryable,
  zone: Zone,
  id: string,
  path: string,
  deleteFilterIfUnused: boolean,
) {
  const rule = await firewallRuleOf(db, zone, id, path);
  await deleteFirewallRuleRow(db, zone.id, id);
  if (deleteFilterIfUnused && (await filterUsers(db, rule.filterId)).length === 0) {
    await deleteFilterRow(db, zone.id, rule.filterId);
  }
  return { id };
}
