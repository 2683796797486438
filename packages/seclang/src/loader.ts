// Loads the OWASP Core Rule Set as the operating system ships it (Debian's `modsecurity-crs`:
// rules in /usr/share/modsecurity-crs/rules, setup in /etc/modsecurity/crs/crs-setup.conf),
// never a copy in this repository, and compiles it into a Waf.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BASE_CONFIG } from './base-config.ts';
import type { EngineConfig } from './engine/config.ts';
import type { WafRequest } from './engine/request-data.ts';
import { applyOverrides, type RuleOverrides } from './overrides.ts';
import { warmUpRegexes } from './regex/translate.ts';
import { SecLangLoader } from './seclang-loader.ts';
import { Waf } from './waf.ts';

export const DEFAULT_CRS_DIR = '/usr/share/modsecurity-crs';
export const DEFAULT_SETUP_FILE = '/etc/modsecurity/crs/crs-setup.conf';

export class CrsNotFoundError extends Error {
  constructor(what: string) {
    super(
      `${what}. Install the OWASP Core Rule Set with \`apt-get install modsecurity-crs\`, ` +
        'or point crsDir (CAIRN_CRS_DIR) at a CRS 3.3 directory.',
    );
    this.name = 'CrsNotFoundError';
  }
}

export type BodyLimits = Pick<
  EngineConfig,
  | 'requestBodyLimit'
  | 'requestBodyNoFilesLimit'
  | 'requestBodyLimitAction'
  | 'argumentsLimit'
  | 'jsonDepthLimit'
  | 'xmlDepthLimit'
  | 'xmlNodeLimit'
  | 'requestHeadersUtf8'
>;

export interface LoadCrsOptions {
  /** Directory holding `rules/` (default /usr/share/modsecurity-crs). */
  crsDir?: string;
  /** crs-setup.conf (default /etc/modsecurity/crs/crs-setup.conf); null: none, CRS defaults. */
  setupFile?: string | null;
  paranoiaLevel?: 1 | 2 | 3 | 4;
  /** Run rules up to this level without counting them in the score (CRS 3.3 feature). */
  executingParanoiaLevel?: 1 | 2 | 3 | 4;
  inboundThreshold?: number;
  outboundThreshold?: number;
  /** Report what would be blocked, block nothing (SecRuleEngine DetectionOnly). */
  detectionOnly?: boolean;
  /** Extra TX variables set before the rules run (`arg_length: 400`). */
  setupVars?: Readonly<Record<string, string | number>>;
  overrides?: RuleOverrides;
  limits?: Partial<BodyLimits>;
  timeBudgetMs?: number;
  onTimeout?: 'block' | 'allow';
  /** SecLang text loaded after the CRS (exclusions, SecRuleUpdateTargetById…). */
  extraRules?: string;
  /** Run sample requests at load so the first real ones do not pay for compilation (default true). */
  warmUp?: boolean;
}

const WARM_UP_REQUESTS: WafRequest[] = [
  {
    method: 'GET',
    uri: '/warm/up?a=1&b=select+x+from+y&c=%3Cscript%3E',
    headers: [
      ['Host', 'localhost'],
      ['User-Agent', 'Mozilla/5.0'],
      ['Accept', '*/*'],
      ['Cookie', 'a=b; c=d'],
    ],
  },
  {
    method: 'POST',
    uri: '/warm/up',
    headers: [
      ['Host', 'localhost'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ],
    body: Buffer.from("name=x&text=it's+a+test+%2F..%2F&q=1'+or+'1'%3D'1"),
  },
  {
    method: 'POST',
    uri: '/warm/up',
    headers: [
      ['Host', 'localhost'],
      ['Content-Type', 'application/json'],
    ],
    body: Buffer.from('{"a":{"b":[1,"two",null,true]},"c":"<img src=x onerror=alert(1)>"}'),
  },
];

/** Compiles what V8 compiles lazily: every regex, and the engine's code paths. */
function warmUp(waf: Waf): void {
  warmUpRegexes();
  const budget = waf.options.timeBudgetMs;
  waf.options.timeBudgetMs = 60_000;
  try {
    for (let i = 0; i < 3; i++) for (const request of WARM_UP_REQUESTS) waf.evaluate(request);
  } finally {
    waf.options.timeBudgetMs = budget;
  }
}

function setupActions(o: LoadCrsOptions): string {
  const lines: string[] = [];
  const pl = o.paranoiaLevel ?? 1;
  const pl2 = o.executingParanoiaLevel
    ? `,setvar:tx.executing_paranoia_level=${o.executingParanoiaLevel}`
    : '';
  lines.push(`SecAction "id:900000,phase:1,nolog,pass,t:none,setvar:tx.paranoia_level=${pl}${pl2}"`);
  lines.push(
    `SecAction "id:900110,phase:1,nolog,pass,t:none,` +
      `setvar:tx.inbound_anomaly_score_threshold=${o.inboundThreshold ?? 5},` +
      `setvar:tx.outbound_anomaly_score_threshold=${o.outboundThreshold ?? 4}"`,
  );
  const vars = Object.entries(o.setupVars ?? {});
  if (vars.length > 0) {
    const sets = vars.map(([k, v]) => `setvar:'tx.${k}=${String(v).replaceAll("'", "\\'")}'`).join(',');
    lines.push(`SecAction "id:900001,phase:1,nolog,pass,t:none,${sets}"`);
  }
  return lines.join('\n');
}

export async function loadCrs(options: LoadCrsOptions = {}): Promise<Waf> {
  return loadCrsSync(options);
}

export function loadCrsSync(options: LoadCrsOptions = {}): Waf {
  const crsDir = options.crsDir ?? process.env.CAIRN_CRS_DIR ?? DEFAULT_CRS_DIR;
  const rulesDir = join(crsDir, 'rules');
  if (!existsSync(join(rulesDir, 'REQUEST-901-INITIALIZATION.conf'))) {
    throw new CrsNotFoundError(`No OWASP CRS found in ${rulesDir}`);
  }
  const setupFile = options.setupFile === undefined ? DEFAULT_SETUP_FILE : options.setupFile;
  if (setupFile !== null && !existsSync(setupFile)) {
    throw new CrsNotFoundError(`CRS setup file ${setupFile} is missing`);
  }
  const loader = new SecLangLoader();
  loader.loadText(BASE_CONFIG, '<base-config>');
  if (options.detectionOnly) loader.ruleset.config.ruleEngine = 'DetectionOnly';
  Object.assign(loader.ruleset.config, options.limits ?? {});
  const setupDir = setupFile === null ? undefined : dirname(setupFile);
  if (setupFile !== null) loader.loadFile(setupFile);
  else
    loader.loadText(
      'SecAction "id:900990,phase:1,nolog,pass,t:none,setvar:tx.crs_setup_version=334"',
      '<setup>',
    );
  loader.loadText(setupActions(options), '<options>');
  const before = setupDir && join(setupDir, 'REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf');
  if (before && existsSync(before)) loader.loadFile(before);
  loader.loadText(`Include ${join(rulesDir, '*.conf')}`, join(crsDir, '<crs>'));
  const after = setupDir && join(setupDir, 'RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf');
  if (after && existsSync(after)) loader.loadFile(after);
  if (options.extraRules) loader.loadText(options.extraRules, '<extra-rules>');
  if (options.overrides) applyOverrides(loader.ruleset, options.overrides);
  loader.ruleset.finalize();
  const waf = new Waf(loader.ruleset, {
    timeBudgetMs: options.timeBudgetMs ?? 100,
    onTimeout: options.onTimeout ?? 'block',
    timeoutStatus: 503,
  });
  if (options.warmUp !== false) warmUp(waf);
  return waf;
}

/** Compiles SecLang text alone (no CRS), for tests and custom rule sets. */
export function loadRules(
  text: string,
  options: Partial<Pick<LoadCrsOptions, 'timeBudgetMs' | 'onTimeout'>> = {},
): Waf {
  const loader = new SecLangLoader();
  loader.loadText(text, '<rules>');
  loader.ruleset.finalize();
  return new Waf(loader.ruleset, {
    timeBudgetMs: options.timeBudgetMs ?? 100,
    onTimeout: options.onTimeout ?? 'block',
    timeoutStatus: 503,
  });
}
