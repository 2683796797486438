// Builds a rule from `SecRule VARIABLES OPERATOR ACTIONS` / `SecAction ACTIONS`: variables from the
// registry, the operator compiled once, actions applied over the phase's SecDefaultAction.

import { getAction } from './actions/index.ts';
import type { DefaultAction, RuleSet } from './engine/ruleset.ts';
import { chainFor } from './engine/transform-chain.ts';
import { RuleCompileError, SecLangError } from './errors.ts';
import { compileMacro } from './macros.ts';
import { getOperator } from './operators/index.ts';
import { compilePcre } from './regex/translate.ts';
import { parseTargetSpecs } from './target-spec.ts';
import type { Disruptive, LoadContext, Rule, RuleBuilder, Target } from './types.ts';
import { getVariable } from './variables/index.ts';
import { XML_SELECTORS } from './variables/xml.ts';

export interface ParsedAction {
  name: string;
  arg: string | undefined;
}

/** Splits `id:1,msg:'a, b',t:none` on commas outside single quotes. */
export function parseActions(text: string): ParsedAction[] {
  const out: ParsedAction[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /[\s,]/.test(text[i]!)) i++;
    if (i >= n) break;
    let j = i;
    while (j < n && text[j] !== ':' && text[j] !== ',') j++;
    const name = text.slice(i, j).trim();
    let arg: string | undefined;
    i = j;
    if (text[i] === ':') {
      i++;
      while (i < n && text[i] === ' ') i++;
      if (text[i] === "'") {
        let value = '';
        i++;
        while (i < n && text[i] !== "'") {
          if (text[i] === '\\' && text[i + 1] === "'") {
            value += "'";
            i += 2;
          } else value += text[i++];
        }
        if (i >= n) throw new RuleCompileError(`unterminated quote in action ${name}`);
        i++;
        arg = value;
      } else {
        let k = i;
        while (k < n && text[k] !== ',') k++;
        arg = text.slice(i, k).trim();
        i = k;
      }
    }
    out.push({ name, arg });
  }
  return out;
}

function compileTargets(text: string): Target[] {
  const specs = parseTargetSpecs(text);
  const targets: Target[] = [];
  const exclusions = new Map<string, Array<string | RegExp>>();
  for (const spec of specs) {
    const variable = getVariable(spec.name);
    if (!variable) throw new RuleCompileError(`unknown variable ${spec.name}`);
    if (spec.negated) {
      const list = exclusions.get(variable.name) ?? [];
      list.push(spec.regex !== undefined ? compilePcre(spec.regex, 'i') : (spec.key ?? '').toLowerCase());
      exclusions.set(variable.name, list);
      continue;
    }
    if (variable.name === 'XML' && spec.key !== undefined && !XML_SELECTORS.has(spec.key)) {
      throw new RuleCompileError(`unsupported XPath XML:${spec.key}`);
    }
    targets.push({
      variable,
      count: spec.count,
      exclusions: [],
      selector:
        spec.regex !== undefined
          ? { kind: 'regex', source: spec.regex, re: compilePcre(spec.regex, 'i') }
          : spec.key !== undefined
            ? { kind: 'key', key: spec.key.toLowerCase(), raw: spec.key }
            : { kind: 'all' },
    });
  }
  for (const t of targets) t.exclusions.push(...(exclusions.get(t.variable.name) ?? []));
  return targets;
}

function newBuilder(phase: number): RuleBuilder {
  return {
    id: 0,
    phase,
    chain: false,
    capture: false,
    multiMatch: false,
    log: undefined,
    disruptive: undefined,
    status: undefined,
    skipAfter: undefined,
    skip: 0,
    msg: undefined,
    logdata: undefined,
    severity: undefined,
    ver: undefined,
    rev: undefined,
    tags: [],
    transformations: [],
    runtime: [],
  };
}

function applyActions(b: RuleBuilder, actions: readonly ParsedAction[]): void {
  for (const a of actions) {
    const def = getAction(a.name);
    if (!def) throw new RuleCompileError(`unknown action ${a.name}`);
    def.init(b, a.arg);
  }
}

export interface BuildInput {
  kind: 'SecRule' | 'SecAction';
  args: string[];
  ctx: LoadContext;
  ruleset: RuleSet;
  /** The chain starter when this SecRule is a chain link. */
  parent: Rule | undefined;
}

export function buildRule({ kind, args, ctx, ruleset, parent }: BuildInput): { rule: Rule; chain: boolean } {
  const [vars, op, actionText] = kind === 'SecRule' ? args : ['', '@unconditionalMatch', args[0]];
  let actions: ParsedAction[] = [];
  let id = parent?.id;
  try {
    actions = parseActions(actionText ?? '');
    const idAction = actions.find((a) => a.name === 'id');
    if (idAction && !parent) id = Number(idAction.arg);
    if (kind === 'SecRule' && (vars === undefined || op === undefined)) {
      throw new RuleCompileError('SecRule needs variables and an operator');
    }
    return compile(vars ?? '', op ?? '', actions, ctx, ruleset, parent);
  } catch (err) {
    if (err instanceof RuleCompileError) throw new SecLangError(err.message, ctx.file, ctx.line, id);
    throw err;
  }
}

function compile(
  vars: string,
  op: string,
  actions: ParsedAction[],
  ctx: LoadContext,
  ruleset: RuleSet,
  parent: Rule | undefined,
): { rule: Rule; chain: boolean } {
  const phaseAction = actions.find((a) => a.name.toLowerCase() === 'phase');
  const probe = newBuilder(2);
  if (phaseAction) applyActions(probe, [phaseAction]);
  const phase = parent?.phase ?? probe.phase;
  const b = newBuilder(phase);
  let defaultDisruptive: Disruptive = 'pass';
  const defaults: DefaultAction | undefined = parent ? undefined : ruleset.defaults.get(phase);
  if (defaults) {
    applyActions(b, defaults.actions);
    defaultDisruptive = b.disruptive ?? 'pass';
    b.disruptive = undefined;
  }
  applyActions(b, actions);
  if (!parent && b.id === 0) throw new RuleCompileError('rule has no id');

  let negated = false;
  let opText = op.trim();
  if (opText.startsWith('!')) {
    negated = true;
    opText = opText.slice(1).trimStart();
  }
  let opName = 'rx';
  let opArg = opText;
  if (opText.startsWith('@')) {
    const space = opText.search(/\s/);
    opName = space < 0 ? opText.slice(1) : opText.slice(1, space);
    opArg = space < 0 ? '' : opText.slice(space + 1);
  }
  const opDef = getOperator(opName);
  if (!opDef) throw new RuleCompileError(`unknown operator @${opName}`);
  const operator = opDef.compile(opArg, ctx);

  const rule: Rule = {
    id: parent ? 0 : b.id,
    phase,
    location: { file: ctx.file, line: ctx.line },
    targets: compileTargets(vars),
    operatorName: opDef.name,
    operatorArg: opArg,
    negated,
    operator,
    prefilter: operator.prefilter,
    transform: chainFor(b.transformations),
    multiMatch: b.multiMatch,
    capture: b.capture,
    log: b.log ?? true,
    disruptive: b.disruptive ?? defaultDisruptive,
    defaultDisruptive,
    status: b.status,
    skipAfter: b.skipAfter,
    skip: b.skip,
    msg: b.msg === undefined ? undefined : compileMacro(b.msg),
    msgText: b.msg,
    logdata: b.logdata === undefined ? undefined : compileMacro(b.logdata),
    severity: b.severity,
    tags: b.tags,
    ver: b.ver,
    actions: b.runtime,
    chained: undefined,
    parentId: parent?.id ?? 0,
    suppressScore: false,
    plans: [],
    missBit: -1,
  };
  return { rule, chain: b.chain };
}
