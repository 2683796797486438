// ctl: changes engine settings for this request only: ruleEngine, requestBodyAccess,
// requestBodyProcessor, forceRequestBodyVariable, ruleRemoveById/ByTag, ruleRemoveTargetById/ByTag;
// auditEngine, auditLogParts and debugLogLevel are accepted (no audit log here).
// Example: "ctl:ruleRemoveTargetById=942100;ARGS:password"

import type { TargetRemoval } from '../engine/transaction.ts';
import { RuleCompileError } from '../errors.ts';
import { compilePcre } from '../regex/translate.ts';
import { parseTargetSpecs } from '../target-spec.ts';
import type { ActionDef, ActionFn } from '../types.ts';
import { getVariable } from '../variables/index.ts';

/** `942100`, `942100-942199`, `1 2 3` or `1,2` → a predicate on rule ids. */
export function idMatcher(text: string): (id: number) => boolean {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  const tests = parts.map((p) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(p);
    if (!m) throw new RuleCompileError(`bad rule id or range "${p}"`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    return (id: number) => id >= from && id <= to;
  });
  return (id) => tests.some((t) => t(id));
}

export function parseRemoval(text: string): TargetRemoval {
  const [spec] = parseTargetSpecs(text);
  if (!spec || !getVariable(spec.name)) throw new RuleCompileError(`unknown variable ${text}`);
  if (spec.regex !== undefined) return { variable: spec.name, key: compilePcre(spec.regex, 'i') };
  return { variable: spec.name, key: spec.key?.toLowerCase() };
}

function onOff(value: string): boolean {
  const v = value.toLowerCase();
  if (v !== 'on' && v !== 'off') throw new RuleCompileError(`expected On or Off, got "${value}"`);
  return v === 'on';
}

const BODY_PROCESSORS = new Set(['URLENCODED', 'MULTIPART', 'XML', 'JSON']);
const ENGINE_MODES = { on: 'On', off: 'Off', detectiononly: 'DetectionOnly' } as const;

function compileCtl(name: string, value: string): ActionFn | undefined {
  switch (name.toLowerCase()) {
    case 'ruleengine': {
      const mode = ENGINE_MODES[value.toLowerCase() as keyof typeof ENGINE_MODES];
      if (!mode) throw new RuleCompileError(`bad ruleEngine "${value}"`);
      return (tx) => void (tx.ruleEngine = mode);
    }
    case 'requestbodyaccess': {
      const on = onOff(value);
      return (tx) => void (tx.requestBodyAccess = on);
    }
    case 'requestbodyprocessor': {
      const proc = value.toUpperCase();
      if (!BODY_PROCESSORS.has(proc)) throw new RuleCompileError(`unknown body processor "${value}"`);
      return (tx) => void (tx.bodyProcessor = proc);
    }
    case 'forcerequestbodyvariable': {
      const on = onOff(value);
      return (tx) => void (tx.forceRequestBodyVariable = on);
    }
    case 'ruleremovebyid': {
      const test = idMatcher(value);
      return (tx) => void tx.removedIds.push(test);
    }
    case 'ruleremovebytag': {
      const tag = value.toLowerCase();
      return (tx) => void tx.removedTags.push(tag);
    }
    case 'ruleremovetargetbyid': {
      const [ids, target] = value.split(';');
      const test = idMatcher(ids ?? '');
      const removal = parseRemoval(target ?? '');
      return (tx) => void tx.removedTargetsById.push({ test, removal });
    }
    case 'ruleremovetargetbytag': {
      const [tag, target] = value.split(';');
      const removal = parseRemoval(target ?? '');
      const lower = (tag ?? '').toLowerCase();
      return (tx) => void tx.removedTargetsByTag.push({ tag: lower, removal });
    }
    case 'auditengine':
    case 'auditlogparts':
    case 'debugloglevel':
    case 'responsebodyaccess':
      return undefined;
    default:
      throw new RuleCompileError(`unsupported ctl:${name}`);
  }
}

export const ctl: ActionDef = {
  name: 'ctl',
  init(rule, arg) {
    const eq = arg?.indexOf('=') ?? -1;
    if (!arg || eq <= 0) throw new RuleCompileError('ctl needs name=value');
    const fn = compileCtl(arg.slice(0, eq), arg.slice(eq + 1));
    if (fn) rule.runtime.push({ name: 'ctl', arg, fn });
  },
};
