// Directive registry: name → handler; duplicates refused, lookup case-insensitive.

import { acceptedDirectives } from './accepted.ts';
import { engineDirectives } from './engine-config.ts';
import { include, includeOptional } from './include.ts';
import { secAction, secDefaultAction, secMarker, secRule } from './rules.ts';
import {
  secRuleRemoveById,
  secRuleRemoveByMsg,
  secRuleRemoveByTag,
  secRuleUpdateActionById,
  secRuleUpdateTargetById,
  secRuleUpdateTargetByTag,
} from './tuning.ts';
import type { DirectiveDef } from './types.ts';

const registry = new Map<string, DirectiveDef>();

export function registerDirective(def: DirectiveDef): void {
  const key = def.name.toLowerCase();
  if (registry.has(key)) throw new Error(`directive ${def.name} is already registered`);
  registry.set(key, def);
}

export function getDirective(name: string): DirectiveDef | undefined {
  return registry.get(name.toLowerCase());
}

for (const def of [
  include,
  includeOptional,
  secAction,
  secDefaultAction,
  secMarker,
  secRule,
  secRuleRemoveById,
  secRuleRemoveByMsg,
  secRuleRemoveByTag,
  secRuleUpdateActionById,
  secRuleUpdateTargetById,
  secRuleUpdateTargetByTag,
  ...engineDirectives,
  ...acceptedDirectives,
]) {
  registerDirective(def);
}
