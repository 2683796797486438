// Directive handlers and the loader state they work on.

import type { RuleSet } from '../engine/ruleset.ts';
import type { Directive } from '../parser.ts';
import type { LoadContext, Rule } from '../types.ts';

export interface LoadState {
  readonly ruleset: RuleSet;
  /** The rule whose `chain` action awaits the next SecRule, and its chain starter. */
  chainTail: Rule | undefined;
  chainStarter: Rule | undefined;
  readonly ids: Set<number>;
  context(d: Directive): LoadContext;
  /** Loads files matching `pattern` (relative to `fromDir`); a missing file is an error unless optional. */
  include(pattern: string, fromDir: string, optional: boolean): void;
}

export interface DirectiveDef {
  readonly name: string;
  apply(d: Directive, state: LoadState): void;
}
