// Rule tuning: SecRuleRemoveById/ByTag/ByMsg, SecRuleUpdateTargetById/ByTag, SecRuleUpdateActionById.
// Example: SecRuleUpdateTargetById 942100 "!ARGS:password"

import { idMatcher } from '../actions/ctl.ts';
import { getAction } from '../actions/index.ts';
import { RuleCompileError, SecLangError } from '../errors.ts';
import type { Directive } from '../parser.ts';
import { compilePcre } from '../regex/translate.ts';
import { parseActions } from '../rule-parser.ts';
import { parseTargetSpecs } from '../target-spec.ts';
import type { Disruptive, Rule } from '../types.ts';
import { getVariable } from '../variables/index.ts';
import type { DirectiveDef, LoadState } from './types.ts';

function guarded(d: Directive, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if (err instanceof RuleCompileError) throw new SecLangError(err.message, d.file, d.line);
    throw err;
  }
}

export const secRuleRemoveById: DirectiveDef = {
  name: 'SecRuleRemoveById',
  apply: (d, state) =>
    guarded(d, () => {
      const test = idMatcher(d.args.join(' '));
      state.ruleset.removeRules((r) => test(r.id));
    }),
};

export const secRuleRemoveByTag: DirectiveDef = {
  name: 'SecRuleRemoveByTag',
  apply: (d, state) =>
    guarded(d, () => {
      const re = compilePcre(d.args[0] ?? '');
      state.ruleset.removeRules((r) => r.tags.some((t) => re.test(t)));
    }),
};

export const secRuleRemoveByMsg: DirectiveDef = {
  name: 'SecRuleRemoveByMsg',
  apply: (d, state) =>
    guarded(d, () => {
      const re = compilePcre(d.args[0] ?? '');
      state.ruleset.removeRules((r) => r.msgText !== undefined && re.test(r.msgText));
    }),
};

/** Adds `!VAR:key` exclusions or extra targets to a rule. */
export function updateTargets(rule: Rule, text: string): void {
  for (const spec of parseTargetSpecs(text)) {
    const variable = getVariable(spec.name);
    if (!variable) throw new RuleCompileError(`unknown variable ${spec.name}`);
    const key = spec.regex !== undefined ? compilePcre(spec.regex, 'i') : (spec.key ?? '').toLowerCase();
    if (spec.negated) {
      for (const t of rule.targets) if (t.variable === variable) t.exclusions.push(key);
      continue;
    }
    rule.targets.push({
      variable,
      count: spec.count,
      exclusions: [],
      selector:
        spec.regex !== undefined
          ? { kind: 'regex', source: spec.regex, re: key as RegExp }
          : spec.key !== undefined
            ? { kind: 'key', key: spec.key.toLowerCase(), raw: spec.key }
            : { kind: 'all' },
    });
  }
}

function rulesBy(state: LoadState, d: Directive, byTag: boolean): Rule[] {
  const arg = d.args[0] ?? '';
  if (byTag) {
    const re = compilePcre(arg);
    return state.ruleset.rules().filter((r) => r.tags.some((t) => re.test(t)));
  }
  const test = idMatcher(arg);
  return state.ruleset.rules().filter((r) => test(r.id));
}

export const secRuleUpdateTargetById: DirectiveDef = {
  name: 'SecRuleUpdateTargetById',
  apply: (d, state) =>
    guarded(d, () => {
      for (const r of rulesBy(state, d, false)) updateTargets(r, d.args[1] ?? '');
    }),
};

export const secRuleUpdateTargetByTag: DirectiveDef = {
  name: 'SecRuleUpdateTargetByTag',
  apply: (d, state) =>
    guarded(d, () => {
      for (const r of rulesBy(state, d, true)) updateTargets(r, d.args[1] ?? '');
    }),
};

const DISRUPTIVE = new Set(['pass', 'block', 'deny', 'drop', 'allow', 'redirect']);

export const secRuleUpdateActionById: DirectiveDef = {
  name: 'SecRuleUpdateActionById',
  apply: (d, state) =>
    guarded(d, () => {
      const rules = rulesBy(state, d, false);
      for (const a of parseActions(d.args[1] ?? '')) {
        const name = a.name.toLowerCase();
        if (!getAction(name)) throw new RuleCompileError(`unknown action ${a.name}`);
        for (const r of rules) {
          if (DISRUPTIVE.has(name)) r.disruptive = name as Disruptive;
          else if (name === 'status') r.status = Number(a.arg);
          else if (name === 'log' || name === 'nolog') r.log = name === 'log';
          else if (name === 'severity') r.severity = (a.arg ?? '').toUpperCase();
          else throw new RuleCompileError(`SecRuleUpdateActionById cannot change ${a.name}`);
        }
      }
    }),
};
