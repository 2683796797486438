// SecRule, SecAction, SecMarker, SecDefaultAction.
// Example: SecRule ARGS "@rx foo" "id:1,phase:2,deny"
import { RuleCompileError, SecLangError } from '../errors.ts';
import type { Directive } from '../parser.ts';
import { buildRule, parseActions } from '../rule-parser.ts';
import type { DirectiveDef, LoadState } from './types.ts';

function addRule(kind: 'SecRule' | 'SecAction', d: Directive, state: LoadState): void {
  const parent = state.chainStarter;
  if (kind === 'SecAction' && parent) {
    throw new SecLangError('SecAction cannot be a chain link', d.file, d.line, parent.id);
  }
  const { rule, chain } = buildRule({
    kind,
    args: d.args,
    ctx: state.context(d),
    ruleset: state.ruleset,
    parent,
  });
  if (parent && state.chainTail) {
    state.chainTail.chained = rule;
  } else {
    if (state.ids.has(rule.id))
      throw new SecLangError(`duplicate rule id ${rule.id}`, d.file, d.line, rule.id);
    state.ids.add(rule.id);
    state.ruleset.addRule(rule);
  }
  if (chain) {
    state.chainStarter = parent ?? rule;
    state.chainTail = rule;
  } else {
    state.chainStarter = undefined;
    state.chainTail = undefined;
  }
}

export const secRule: DirectiveDef = { name: 'SecRule', apply: (d, s) => addRule('SecRule', d, s) };
export const secAction: DirectiveDef = { name: 'SecAction', apply: (d, s) => addRule('SecAction', d, s) };

export const secMarker: DirectiveDef = {
  name: 'SecMarker',
  apply(d, state) {
    const name = d.args[0];
    if (!name) throw new SecLangError('SecMarker needs a name', d.file, d.line);
    state.ruleset.addMarker(name);
  },
};

export const secDefaultAction: DirectiveDef = {
  name: 'SecDefaultAction',
  apply(d, state) {
    try {
      const actions = parseActions(d.args[0] ?? '');
      const phase = actions.find((a) => a.name.toLowerCase() === 'phase');
      if (!phase) throw new RuleCompileError('SecDefaultAction needs a phase');
      const n = Number(phase.arg === 'request' ? 2 : phase.arg === 'response' ? 4 : phase.arg);
      state.ruleset.defaults.set(n, { actions: actions.filter((a) => a.name.toLowerCase() !== 'phase') });
    } catch (err) {
      if (err instanceof RuleCompileError) throw new SecLangError(err.message, d.file, d.line);
      throw err;
    }
  },
};
