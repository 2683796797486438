import type { Catalogue } from '../../../managed/catalogue.ts';
import { invalidValue } from '../../errors.ts';
import { HEX_ID } from '../../ids.ts';
import { arr, hexId, obj, oneOf, optional, pointerTo, record, type Static, str } from '../../schema.ts';
import { SKIP_PRODUCTS, SKIPPABLE_PHASES, type SupportedPhase } from '../phases.ts';

export const skipParameters = obj(
  {
    ruleset: optional(oneOf(['current'], 'Skip the remaining rules of the current ruleset')),
    phase: optional(oneOf(['current'], 'Skip the rest of the http_request_firewall_custom phase')),
    rulesets: optional(arr(hexId(), { min: 1, unique: true, description: 'Managed rulesets to skip' })),
    rules: optional(
      record(
        { pattern: HEX_ID, problem: 'it must be a 32-character hex ruleset id', description: 'ruleset id' },
        arr(hexId(), { min: 1, unique: true }),
        { min: 1, description: 'Rules to skip, by managed ruleset id' },
      ),
    ),
    phases: optional(
      arr(str({ min: 1, max: 64 }), { min: 1, unique: true, description: 'Later phases to skip' }),
    ),
    products: optional(
      arr(oneOf(SKIP_PRODUCTS), { min: 1, unique: true, description: 'Legacy products to skip' }),
    ),
  },
  {
    minProperties: 1,
    minPropertiesHint:
      'a skip rule must say what to skip: ruleset, phase, rulesets, rules, phases or products',
    description: 'skip: what the matching requests skip',
  },
);

export type SkipParameters = Static<typeof skipParameters>;

/**
 * The combinations the real service refuses (reference §1.6): `ruleset: "current"` stands alone;
 * `rulesets` and `phases` exclude each other; managed-ruleset skips (`rulesets`, `rules`) belong to the
 * managed phase, `phases`, `phase` and `products` to custom rules.
 */
export function checkSkip(
  params: SkipParameters,
  pointer: string,
  context: { catalogue: Catalogue; phase: SupportedPhase },
): void {
  const managedPhase = context.phase === 'http_request_firewall_managed';
  const given = (Object.keys(params) as (keyof SkipParameters)[]).filter((k) => params[k] !== undefined);
  const refuse = (key: keyof SkipParameters, reason: string): never => {
    throw invalidValue(pointerTo(pointer, key), params[key], reason);
  };
  if (params.ruleset !== undefined) {
    const other = given.find((k) => k === 'rulesets' || k === 'rules' || k === 'phases' || k === 'phase');
    if (other) refuse(other, 'it cannot be combined with ruleset: "current"');
  }
  if (params.rulesets !== undefined && params.phases !== undefined)
    refuse('phases', 'it cannot be combined with rulesets');
  if (managedPhase) {
    for (const k of ['phases', 'phase', 'products'] as const) {
      if (params[k] !== undefined)
        refuse(k, `it is only available to skip rules of the http_request_firewall_custom phase`);
    }
  } else {
    for (const k of ['rulesets', 'rules'] as const) {
      if (params[k] !== undefined) {
        refuse(
          k,
          'skipping managed rulesets or their rules is only possible in the http_request_firewall_managed phase',
        );
      }
    }
  }
  params.rulesets?.forEach((id, i) => {
    if (!context.catalogue.find(id)) {
      throw invalidValue(
        pointerTo(pointerTo(pointer, 'rulesets'), i),
        id,
        'no managed ruleset with this id is available',
      );
    }
  });
  for (const [rulesetId, ruleIds] of Object.entries(params.rules ?? {})) {
    const at = pointerTo(pointerTo(pointer, 'rules'), rulesetId);
    const ruleset = context.catalogue.find(rulesetId);
    if (!ruleset) throw invalidValue(at, rulesetId, 'no managed ruleset with this id is available');
    const known = new Set(ruleset.rules().map((r) => r.id));
    ruleIds.forEach((id, i) => {
      if (!known.has(id))
        throw invalidValue(pointerTo(at, i), id, `${ruleset.name} has no rule with this id`);
    });
  }
  const skippable = SKIPPABLE_PHASES[context.phase];
  params.phases?.forEach((p, i) => {
    if (!(skippable as readonly string[]).includes(p)) {
      throw invalidValue(
        pointerTo(pointerTo(pointer, 'phases'), i),
        p,
        `a skip rule in ${context.phase} can only skip ${skippable.join(', ')}`,
      );
    }
  });
}
