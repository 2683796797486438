// Engine settings: SecRuleEngine, SecRequestBodyAccess, the body limits, SecArgumentsLimit,
// SecRequestBodyJsonDepthLimit, SecArgumentSeparator, SecCollectionTimeout.
// Example: SecRequestBodyLimit 13107200
import type { EngineConfig } from '../engine/config.ts';
import { SecLangError } from '../errors.ts';
import type { Directive } from '../parser.ts';
import type { DirectiveDef } from './types.ts';

function arg(d: Directive): string {
  const value = d.args[0];
  if (value === undefined) throw new SecLangError(`${d.name} needs an argument`, d.file, d.line);
  return value;
}

function int(d: Directive): number {
  const n = Number(arg(d));
  if (!Number.isInteger(n) || n < 0)
    throw new SecLangError(`${d.name}: "${d.args[0]}" is not a number`, d.file, d.line);
  return n;
}

function choice<T extends string>(d: Directive, options: readonly T[]): T {
  const value = arg(d).toLowerCase();
  const hit = options.find((o) => o.toLowerCase() === value);
  if (!hit) throw new SecLangError(`${d.name}: expected one of ${options.join(', ')}`, d.file, d.line);
  return hit;
}

function setting(name: string, set: (config: EngineConfig, d: Directive) => void): DirectiveDef {
  return { name, apply: (d, state) => set(state.ruleset.config, d) };
}

export const engineDirectives: DirectiveDef[] = [
  setting(
    'SecRuleEngine',
    (c, d) => void (c.ruleEngine = choice(d, ['On', 'Off', 'DetectionOnly'] as const)),
  ),
  setting(
    'SecRequestBodyAccess',
    (c, d) => void (c.requestBodyAccess = choice(d, ['On', 'Off'] as const) === 'On'),
  ),
  setting('SecRequestBodyLimit', (c, d) => void (c.requestBodyLimit = int(d))),
  setting('SecRequestBodyNoFilesLimit', (c, d) => void (c.requestBodyNoFilesLimit = int(d))),
  setting(
    'SecRequestBodyLimitAction',
    (c, d) => void (c.requestBodyLimitAction = choice(d, ['Reject', 'ProcessPartial'] as const)),
  ),
  setting('SecArgumentsLimit', (c, d) => void (c.argumentsLimit = int(d))),
  setting('SecRequestBodyJsonDepthLimit', (c, d) => void (c.jsonDepthLimit = int(d))),
  setting('SecArgumentSeparator', (c, d) => void (c.argumentSeparator = arg(d))),
  setting('SecCollectionTimeout', (c, d) => void (c.collectionTimeout = int(d))),
];
