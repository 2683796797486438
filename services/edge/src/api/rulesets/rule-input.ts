import { anyObject, bool, ignored, int, obj, optional, type Static, str } from '../schema.ts';

/** `action_parameters` before the action is known: any object; `validate.ts` checks it per action. */
const actionParameters = anyObject(
  'Depends on action: execute (id, version, matched_data, overrides), skip (ruleset, phase, rulesets, rules, phases, products), block (response); see the Rulesets API',
);

export const position = obj(
  {
    before: optional(str({ max: 32, description: 'Put the rule before this rule id ("" = first)' })),
    after: optional(str({ max: 32, description: 'Put the rule after this rule id ("" = last)' })),
    index: optional(int(1, 100_000, 'Put the rule at this position (1 = first)')),
  },
  { description: 'Where the rule goes: exactly one of before, after, index' },
);
export type Position = Static<typeof position>;

const ruleFields = {
  id: optional(
    str({ max: 64, description: 'Existing rule id to keep the rule; "" or absent for a new rule' }),
  ),
  version: ignored({ type: 'string' }),
  last_updated: ignored({ type: 'string' }),
  categories: ignored({ type: 'array', items: { type: 'string' } }),
  ref: optional(str({ max: 100, description: 'Your reference (default: the rule id)' })),
  action: str({ min: 1, max: 64 }),
  expression: str({ min: 1, description: 'A Rules-language expression' }),
  description: optional(str({ max: 500 })),
  enabled: optional(bool()),
  logging: optional(obj({ enabled: bool() })),
  action_parameters: optional(actionParameters),
};

export const ruleInput = obj(ruleFields);
export type RuleInput = Static<typeof ruleInput>;

/** POST …/rules: a rule and where it goes. */
export const ruleWithPosition = obj({ ...ruleFields, position: optional(position) });
export type RuleWithPosition = Static<typeof ruleWithPosition>;

/** PATCH …/rules/{id}: the fields to change (the rest is kept) and/or a new position. */
export const rulePatch = obj({
  ...ruleFields,
  action: optional(ruleFields.action),
  expression: optional(ruleFields.expression),
  position: optional(position),
});
export type RulePatch = Static<typeof rulePatch>;
