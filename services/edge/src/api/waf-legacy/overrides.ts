import type { EdgeDeps } from '../../deps.ts';
import { invalidBody, invalidValue, noSuchObject } from '../errors.ts';
import { HEX_ID, isHexId, newHexId } from '../ids.ts';
import {
  arr,
  bool,
  hexId,
  int,
  nullable,
  obj,
  oneOf,
  optional,
  pointerTo,
  record,
  type Static,
  str,
} from '../schema.ts';
import { lockZone, type Zone } from '../zones/store.ts';
import { PACKAGES, packageGroups, packageRules } from './catalogue.ts';
import { assertLegacyWaf } from './service.ts';
import { deleteOverrideRow, findOverride, listOverrides, saveOverride, type WafOverride } from './store.ts';

/** URI-based WAF overrides: per URL pattern, change rule/group modes and rewrite actions. */
export const OVERRIDE_ACTIONS = ['challenge', 'block', 'simulate', 'disable', 'default'] as const;

const mode = oneOf(OVERRIDE_ACTIONS);
const url = str({
  min: 1,
  max: 2048,
  pattern: /^[^\s]+$/,
  patternHint: 'a URL pattern without spaces, such as shop.example.com/admin/*',
});

const ruleModes = record(
  { pattern: /^[0-9]{1,12}$/, problem: 'it must be a WAF rule id (digits)', description: 'rule id' },
  mode,
);
const rewriteAction = obj({
  block: optional(mode),
  challenge: optional(mode),
  default: optional(mode),
  disable: optional(mode),
  simulate: optional(mode),
});

const fields = {
  id: optional(hexId()),
  description: optional(nullable(str({ max: 1024 }))),
  urls: arr(url, { min: 1, max: 50, unique: true, description: 'URL patterns (simple wildcards)' }),
  priority: optional(int(-1_000_000_000, 1_000_000_000, 'Lower numbers take precedence')),
  paused: optional(bool()),
  groups: optional(
    record(
      { pattern: HEX_ID, problem: 'it must be a WAF group id (32 hex characters)', description: 'group id' },
      mode,
    ),
  ),
  rules: optional(ruleModes),
  rewrite_action: optional(rewriteAction),
};

export const overrideCreate = obj(fields);
/** PUT requires id, urls, rules and rewrite_action (reference §2.2). */
export const overrideUpdate = obj({
  ...fields,
  id: hexId(),
  rules: ruleModes,
  rewrite_action: rewriteAction,
});
type OverrideInput = Static<typeof overrideCreate>;

export function overrideJson(o: WafOverride) {
  return {
    id: o.id,
    description: o.description,
    urls: o.urls,
    priority: o.priority,
    paused: o.paused,
    groups: o.groups,
    rules: o.rules,
    rewrite_action: o.rewriteAction,
  };
}

function checkReferences(deps: Pick<EdgeDeps, 'catalogue'>, input: OverrideInput) {
  if (!input.groups && !input.rules) {
    throw invalidBody('', 'a WAF override needs rules or groups to override (and urls to apply to)');
  }
  const groupIds = new Set(PACKAGES.flatMap((p) => packageGroups(deps.catalogue, p.id).map((g) => g.id)));
  for (const id of Object.keys(input.groups ?? {})) {
    if (!groupIds.has(id)) throw invalidValue(pointerTo('/groups', id), id, 'no WAF group has this id');
  }
  if (input.rules && Object.keys(input.rules).length > 0) {
    const ruleIds = new Set(PACKAGES.flatMap((p) => packageRules(deps.catalogue, p.id).map((r) => r.id)));
    for (const id of Object.keys(input.rules)) {
      if (!ruleIds.has(id)) throw invalidValue(pointerTo('/rules', id), id, 'no WAF rule has this id');
    }
  }
}

export async function createOverride(
  deps: Pick<EdgeDeps, 'db' | 'clock' | 'catalogue'>,
  zone: Zone,
  input: OverrideInput,
) {
  if (input.id !== undefined)
    throw invalidValue('/id', input.id, 'a new override gets its id from Cairn; leave id out');
  checkReferences(deps, input);
  const now = deps.clock.now();
  const o: WafOverride = {
    id: newHexId(),
    zoneId: zone.id,
    description: input.description ?? null,
    urls: input.urls,
    priority: input.priority ?? 1,
    paused: input.paused ?? false,
    groups: input.groups ?? {},
    rules: input.rules ?? {},
    rewriteAction: input.rewrite_action ?? {},
    createdOn: now,
    modifiedOn: now,
  };
  // URI-based overrides make a zone ineligible for the WAF upgrade: created under the zone's lock, so
  // one cannot slip in beside an upgrade in progress (it waits, then finds the zone upgraded).
  await deps.db.transaction(async (tx) => {
    const locked = await lockZone(tx, zone.id);
    if (locked) assertLegacyWaf(locked);
    await saveOverride(tx, o);
  });
  return overrideJson(o);
}

export async function overrideOf(deps: Pick<EdgeDeps, 'db'>, zone: Zone, id: string, path: string) {
  if (!isHexId(id)) throw noSuchObject(path, `"${id}" is not a WAF override id (32 hex characters)`, 400);
  const o = await findOverride(deps.db, zone.id, id);
  if (!o) throw noSuchObject(path, `No WAF override ${id} in zone ${zone.name}`);
  return o;
}

export async function updateOverride(
  deps: Pick<EdgeDeps, 'db' | 'clock' | 'catalogue'>,
  zone: Zone,
  id: string,
  input: Static<typeof overrideUpdate>,
  path: string,
) {
  const existing = await overrideOf(deps, zone, id, path);
  if (input.id !== id) throw invalidValue('/id', input.id, `it must be the id in the path (${id})`);
  checkReferences(deps, input);
  const o: WafOverride = {
    ...existing,
    description: input.description === undefined ? existing.description : input.description,
    urls: input.urls,
    priority: input.priority ?? existing.priority,
    paused: input.paused ?? existing.paused,
    groups: input.groups ?? existing.groups,
    rules: input.rules,
    rewriteAction: input.rewrite_action,
    modifiedOn: deps.clock.now(),
  };
  await saveOverride(deps.db, o);
  return overrideJson(o);
}

export async function deleteOverride(deps: Pick<EdgeDeps, 'db'>, zone: Zone, id: string, path: string) {
  await overrideOf(deps, zone, id, path);
  await deleteOverrideRow(deps.db, zone.id, id);
  return { id };
}

export const listZoneOverrides = (deps: Pick<EdgeDeps, 'db'>, zone: Zone) => listOverrides(deps.db, zone.id);
