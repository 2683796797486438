// Shared shapes of the engine: registry entries (operators, transformations, variables, actions)
// and the compiled rule. Request data is held as "binary strings": one UTF-16 unit per byte
// (latin1), so operators and transformations keep ModSecurity's byte-level semantics.

import type { Transaction } from './engine/transaction.ts';
import type { Prefilter } from './regex/prefilter.ts';

export type { Transaction };

/** One value of a variable: `key` is '' for scalar variables. */
export interface Entry {
  readonly key: string;
  readonly value: string;
}

/** Where a directive came from; used in every load-time error. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

export interface LoadContext extends SourceLocation {
  /** Directory of the rule file, for `@pmFromFile` relative paths. */
  readonly dir: string;
  readFile(path: string): string;
}

/** A compiled operator: `input` is the transformed value. */
export interface OperatorFn {
  (tx: Transaction, input: string): boolean;
  /**
   * Class masks every matching input hits (regex/prefilter.ts): the engine skips the call, as a
   * non-match, for a value that misses one. The operator itself stays exact without it.
   */
  prefilter?: Prefilter;
  /**
   * The result depends on the input alone (no macro, no transaction state), and a call that returns
   * false changes nothing: the engine may remember that a value does not match (engine/value-cache.ts).
   */
  pure?: boolean;
}

export interface OperatorDef {
  readonly name: string;
  /** Called once at load time with the raw argument (macros still unexpanded). */
  compile(arg: string, ctx: LoadContext): OperatorFn;
}

export interface TransformationDef {
  readonly name: string;
  /** Returns the transformed value; returning the same string means "unchanged". */
  transform(input: string): string;
}

export interface VariableDef {
  /** Upper-case SecLang name, e.g. `REQUEST_HEADERS`. */
  readonly name: string;
  /** A collection is addressed as `NAME:key`; a scalar has one unnamed value. */
  readonly kind: 'collection' | 'scalar';
  /** Values change while a phase runs (TX, MATCHED_VAR…): never cached across rules. */
  readonly dynamic?: boolean;
  /** All entries of the variable in this transaction. */
  entries(tx: Transaction): readonly Entry[];
  /** Entries whose key equals `lowerKey` case-insensitively (collections only). */
  byKey?(tx: Transaction, lowerKey: string): readonly Entry[];
}

export type Selector =
  | { readonly kind: 'all' }
  | { readonly kind: 'key'; readonly key: string; readonly raw: string }
  | { readonly kind: 'regex'; readonly source: string; readonly re: RegExp };

export interface Target {
  readonly variable: VariableDef;
  readonly selector: Selector;
  /** `&VAR`: the number of entries instead of their values. */
  readonly count: boolean;
  /** `!VAR:key` entries of the same rule: keys (lower-case) or regexes to leave out. */
  readonly exclusions: Array<string | RegExp>;
}

export type Disruptive = 'pass' | 'block' | 'deny' | 'drop' | 'allow' | 'redirect';

/** A run-time action (setvar, ctl, initcol…) executed when a rule link matches. */
export type ActionFn = (tx: Transaction, rule: Rule) => void;

export interface ActionDef {
  readonly name: string;
  /** Applies the action to the rule being built; throws with a reason on a bad argument. */
  init(rule: RuleBuilder, arg: string | undefined): void;
}

/** Builder view of a rule used by actions at load time. */
export interface RuleBuilder {
  id: number;
  phase: number;
  chain: boolean;
  capture: boolean;
  multiMatch: boolean;
  log: boolean | undefined;
  disruptive: Disruptive | undefined;
  status: number | undefined;
  skipAfter: string | undefined;
  skip: number;
  msg: string | undefined;
  logdata: string | undefined;
  severity: string | undefined;
  ver: string | undefined;
  rev: string | undefined;
  tags: string[];
  transformations: string[];
  runtime: Array<{ name: string; arg: string; fn: ActionFn }>;
}

export type Macro = (tx: Transaction, rule: Rule | undefined) => string;

export interface TransformChain {
  /** Unique per distinct chain prefix; index into the per-transaction cache. */
  readonly id: number;
  /** Index of `def` among the transformations in use (-1 for none): the per-value step cache. */
  readonly step: number;
  readonly names: string;
  /** The class transfers of the path from the root to this node (engine/class-transfer.ts). */
  readonly transfer: Int32Array;
  /**
   * Shortcut of `transfer`: for class bits without any of the trigger classes, the result is the
   * input plus the base classes (what the chain adds to an empty value).
   */
  readonly triggerLo: number;
  readonly triggerHi: number;
  readonly baseLo: number;
  readonly baseHi: number;
  /** When `keeps`: the step is the identity on values without these classes (class-transfer.ts). */
  readonly keeps: boolean;
  /** The step's output has exactly its input's classes (`lowercase`): bits are inherited. */
  readonly sameClasses: boolean;
  readonly keepLo: number;
  readonly keepHi: number;
  readonly parent: TransformChain | undefined;
  readonly def: TransformationDef | undefined;
}

/** How a rule reads one of its targets (one small object, so reading it touches one place). */
export interface TargetPlan {
  readonly target: Target;
  /** `&VAR`: the number of values. */
  readonly count: boolean;
  /** Slot in the per-phase cache of resolved values, -1 when not cacheable. */
  readonly slot: number;
  /**
   * With `!` exclusions: the cache slot of the same target without them (its values are reused
   * when the exclusions leave out nothing), else -1.
   */
  readonly baseSlot: number;
  /** The TX key when the target is a plain `TX:key` (read directly), else undefined. */
  readonly txKey: string | undefined;
  /** The name values are reported under: `ARGS`, `&TX:foo`. */
  readonly name: string;
  /** For a `TX:key` target: `TX:key` with the key as written (MATCHED_VAR_NAME). */
  readonly txName: string;
}

export interface Rule {
  readonly id: number;
  readonly phase: number;
  readonly location: SourceLocation;
  targets: Target[];
  readonly operatorName: string;
  readonly operatorArg: string;
  readonly negated: boolean;
  readonly operator: OperatorFn;
  /** The operator's prefilter, if any (a copy of `operator.prefilter`). */
  readonly prefilter: Prefilter | undefined;
  readonly transform: TransformChain | undefined;
  readonly multiMatch: boolean;
  readonly capture: boolean;
  log: boolean;
  disruptive: Disruptive;
  status: number | undefined;
  readonly skipAfter: string | undefined;
  readonly skip: number;
  readonly defaultDisruptive: Disruptive;
  readonly msg: Macro | undefined;
  readonly logdata: Macro | undefined;
  readonly msgText: string | undefined;
  severity: string | undefined;
  readonly tags: readonly string[];
  readonly ver: string | undefined;
  readonly actions: ReadonlyArray<{ name: string; arg: string; fn: ActionFn }>;
  /** The next link of a chain. */
  chained: Rule | undefined;
  /** Set on chain links: the rule id of the chain starter. */
  readonly parentId: number;
  /** A per-rule override turned scoring `setvar`s off (action "log"). */
  suppressScore: boolean;
  /** Per target, what the engine needs to read it (set by RuleSet.finalize). */
  plans: TargetPlan[];
  /**
   * The link's bit in a value's record of links known not to match it (set by RuleSet.finalize):
   * -1 unless the operator is pure and not negated.
   */
  missBit: number;
}
