// One request's state while rules run: the parsed request (held as binary strings), the
// collections, the ctl: changes made by rules, the match state and the per-request caches.

import type { Entry, Rule } from '../types.ts';
import { getVariable } from '../variables/index.ts';
import type { CpuBudget } from './budget.ts';
import { EntryList } from './collections/entry-list.ts';
import type { PersistentStore } from './collections/persistent-store.ts';
import { VarCollection } from './collections/var-collection.ts';
import type { RuleEngineMode } from './config.ts';
import { type GeoLookup, parseRequestData, type RequestData, type WafRequest } from './request-data.ts';
import type { RuleSet } from './ruleset.ts';
import type { TargetValues } from './targets.ts';
import type { ValueRec } from './transform-chain.ts';

export interface MatchedRule {
  id: number;
  phase: number;
  message: string;
  data: string;
  tags: readonly string[];
  severity?: string;
  /** Variable name and value of the last match, e.g. `ARGS:q`. */
  matchedVar: string;
}

export interface Intervention {
  action: 'deny' | 'drop' | 'redirect';
  status: number;
  ruleId: number;
}

export interface TargetRemoval {
  variable: string;
  key: string | RegExp | undefined;
}

export class Transaction {
  readonly ruleset: RuleSet;
  readonly data: RequestData;
  readonly tx = new VarCollection();
  readonly collections = new Map<string, VarCollection>();
  readonly uniqueId: string;
  readonly startedAt: number;

  // body processing results
  argsPost = new EntryList();
  args: EntryList;
  requestBody: string | undefined;
  bodyProcessor: string | undefined;
  bodyError = 0;
  bodyErrorMessage = '';
  /** A header value that is not UTF-8 (requestHeadersUtf8), also reported as the body error. */
  headerError: string | undefined;
  inboundDataError = 0;
  files = new EntryList();
  filesSizes = new EntryList();
  filesCombinedSize = 0;
  multipartPartHeaders = new EntryList();
  multipartFlags = new Map<string, number>();
  multipartFilename = '';
  multipartName = '';
  xml: { root: string; attributes: string[] } | undefined;
  /** GEO, filled by @geoLookup from `geoLookup` (the request's database). */
  readonly geo = new EntryList();
  readonly geoLookup: GeoLookup | undefined;

  // ctl: state
  ruleEngine: RuleEngineMode;
  forceRequestBodyVariable = false;
  requestBodyAccess: boolean;
  removedIds: Array<(id: number) => boolean> = [];
  removedTags: string[] = [];
  removedTargetsById: Array<{ test: (id: number) => boolean; removal: TargetRemoval }> = [];
  removedTargetsByTag: Array<{ tag: string; removal: TargetRemoval }> = [];

  // rule evaluation state
  phase = 0;
  capture = false;
  /** Milliseconds (wall-clock) this request's regexes ran on V8 so far (see regex/re2.ts). */
  v8RegexMs = 0;
  currentRule: Rule | undefined;
  matchedVar = '';
  matchedVarName = '';
  matchedVars = new EntryList();
  readonly matches: MatchedRule[] = [];
  intervention: Intervention | undefined;
  /** Would-be intervention in DetectionOnly mode. */
  detectedIntervention: Intervention | undefined;
  allowed = false;
  timedOut = false;
  /** The evaluation's CPU budget (set by Waf.evaluate); also checked between large values. */
  budget: CpuBudget | undefined;

  // caches: one record per distinct value (its transformed forms), resolved target lists per slot
  readonly transformCache = new Map<string, ValueRec>();
  targetCache: Array<TargetValues | undefined> = [];

  constructor(ruleset: RuleSet, request: WafRequest, store: PersistentStore, uniqueId: string) {
    this.ruleset = ruleset;
    this.store = store;
    this.data = parseRequestData(request, ruleset.config.argumentSeparator);
    this.geoLookup = request.geoLookup;
    this.args = this.data.argsGet;
    this.uniqueId = uniqueId;
    this.startedAt = performance.now();
    this.ruleEngine = ruleset.config.ruleEngine;
    this.requestBodyAccess = ruleset.config.requestBodyAccess;
    this.bodyProcessor = this.data.defaultBodyProcessor;
    this.collections.set('tx', this.tx);
  }

  private readonly store: PersistentStore;

  /** `initcol`: opens a persistent collection under `key`. */
  openCollection(name: string, key: string): void {
    this.collections.set(name.toLowerCase(), this.store.open(name, key));
  }

  collection(name: string): VarCollection | undefined {
    return this.collections.get(name.toLowerCase());
  }

  setCapture(index: number, value: string): void {
    this.tx.set(String(index), value);
  }

  setCaptures(m: RegExpExecArray): void {
    const n = Math.min(m.length, 10);
    for (let i = 0; i < n; i++) this.tx.set(String(i), m[i] ?? '');
  }

  /** Records one variable match (MATCHED_VAR, MATCHED_VAR_NAME, MATCHED_VARS). */
  setMatched(name: string, value: string): void {
    this.matchedVar = value;
    this.matchedVarName = name;
    this.matchedVars.add(name, value);
  }

  /** The value a macro `%{NAME.key}` expands to ('' when missing). */
  macroValue(name: string, key: string | undefined): string {
    if (name === 'TX' && key !== undefined) return this.tx.get(key) ?? '';
    const variable = getVariable(name);
    if (!variable) return '';
    let entries: readonly Entry[];
    if (key === undefined || variable.kind === 'scalar') entries = variable.entries(this);
    else entries = variable.byKey ? variable.byKey(this, key) : [];
    return entries[0]?.value ?? '';
  }

  /** Moves to the request-body phase: ARGS now includes the body's arguments. */
  bodyArgsReady(): void {
    this.args = new EntryList([...this.data.argsGet.entries, ...this.argsPost.entries]);
  }

  isRuleRemoved(rule: Rule): boolean {
    if (this.removedIds.length > 0 && this.removedIds.some((f) => f(rule.id))) return true;
    return this.removedTags.length > 0 && rule.tags.some((t) => this.removedTags.includes(t.toLowerCase()));
  }

  /** ctl: target removals that apply to `rule`, or undefined. */
  targetRemovals(rule: Rule): TargetRemoval[] | undefined {
    if (this.removedTargetsById.length === 0 && this.removedTargetsByTag.length === 0) return undefined;
    const out: TargetRemoval[] = [];
    for (const r of this.removedTargetsById) if (r.test(rule.id)) out.push(r.removal);
    for (const r of this.removedTargetsByTag) {
      if (rule.tags.some((t) => t.toLowerCase() === r.tag)) out.push(r.removal);
    }
    return out.length > 0 ? out : undefined;
  }
}
