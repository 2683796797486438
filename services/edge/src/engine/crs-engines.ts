import { loadCrsSync, type RuleAction, type Waf } from '@cairn/seclang';

/** What makes two CRS engines different: the paranoia level, disabled rules and per-rule actions. */
export interface CrsProfile {
  paranoiaLevel: 1 | 2 | 3 | 4;
  /** CRS rule ids. */
  disabledRules: readonly number[];
  /** CRS rule id → `block` (denies by itself) or `log` (reported, adds no score). */
  ruleActions: Readonly<Record<string, Exclude<RuleAction, 'default'>>>;
}

/**
 * Rules of the base configuration that refuse bodies that fail to parse (or reach 1,000 arguments,
 * 200007). They are loaded as `log`, and the engine decides: a body cut at the inspection limit cannot
 * parse, and is not a reason to block by itself (the managed ruleset's body-limit rule decides that).
 */
export const BODY_ERROR_RULES: ReadonlySet<number> = new Set([200002, 200003, 200004, 200007]);

/**
 * The anomaly threshold the CRS engines are loaded with: never reached. The threshold is applied by the
 * engine to the score the CRS computes, so that one loaded engine serves every threshold (and skip rules
 * can take a skipped rule's points back out).
 */
const NEVER = 1_000_000;

export interface CrsEngineOptions {
  crsDir: string;
  /** Body bytes the data plane hands over at most. */
  bodyLimit: number;
  /** Loaded engines kept (each holds the compiled CRS, some MB). */
  maxEngines: number;
  timeBudgetMs: number;
}

export const profileKey = (p: CrsProfile): string =>
  JSON.stringify([
    p.paranoiaLevel,
    [...p.disabledRules].sort((a, b) => a - b),
    Object.entries(p.ruleActions).sort(([a], [b]) => Number(a) - Number(b)),
  ]);

/**
 * Loaded CRS engines by profile (loading one takes ~0.3–0.6 s of CPU, so it happens when a zone's plan is
 * compiled, never per request), least recently used evicted past `maxEngines`.
 */
export class CrsEngines {
  private readonly engines = new Map<string, Waf>();
  /** The profile each engine was loaded from (a worker loads the same engine from it). */
  private readonly profiles = new WeakMap<Waf, CrsProfile>();
  loads = 0;

  constructor(readonly options: CrsEngineOptions) {}

  get(profile: CrsProfile): Waf {
    const key = profileKey(profile);
    const hit = this.engines.get(key);
    if (hit) {
      this.engines.delete(key);
      this.engines.set(key, hit);
      return hit;
    }
    const ruleActions: Record<string, Exclude<RuleAction, 'default'>> = { ...profile.ruleActions };
    for (const id of BODY_ERROR_RULES) ruleActions[String(id)] = 'log';
    const waf = loadCrsSync({
      crsDir: this.options.crsDir,
      setupFile: null,
      paranoiaLevel: profile.paranoiaLevel,
      inboundThreshold: NEVER,
      overrides: { disabledRules: [...profile.disabledRules], ruleActions },
      limits: {
        requestBodyLimit: Math.max(13_107_200, this.options.bodyLimit),
        requestBodyNoFilesLimit: Math.max(131_072, this.options.bodyLimit),
        requestBodyLimitAction: 'ProcessPartial',
        requestHeadersUtf8: true,
      },
      timeBudgetMs: this.options.timeBudgetMs,
      onTimeout: 'block',
    });
    this.loads++;
    this.engines.set(key, waf);
    this.profiles.set(waf, profile);
    while (this.engines.size > this.options.maxEngines) {
      const oldest = this.engines.keys().next().value;
      if (oldest === undefined) break;
      this.engines.delete(oldest);
    }
    return waf;
  }

  /** The profile `waf` was loaded from (an engine this object loaded). */
  profileOf(waf: Waf): CrsProfile | undefined {
    return this.profiles.get(waf);
  }

  get size(): number {
    return this.engines.size;
  }
}
