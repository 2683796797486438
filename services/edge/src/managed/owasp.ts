import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CrsNotFoundError, loadCrsSync } from '@cairn/seclang';
import { stableId } from '../api/ids.ts';

/** The OWASP anomaly-score rule's real public id (reference §1.7) and its CRS id. */
export const ANOMALY_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';
export const ANOMALY_CRS_ID = 949110;
export const DEFAULT_SCORE_THRESHOLD = 40;

/** One CRS request rule: what the OWASP managed ruleset and the legacy OWASP package show. */
export interface CrsRule {
  crsId: number;
  file: string;
  message: string;
  paranoiaLevel: 1 | 2 | 3 | 4;
  tags: string[];
  /** CRS anomaly points: critical 5, error 4, warning 3, notice 2. */
  score: number;
}

export interface CrsGroup {
  file: string;
  name: string;
  rules: CrsRule[];
}

export interface CrsCatalogue {
  groups: CrsGroup[];
  rules: CrsRule[];
}

const SEVERITY_SCORE: Record<string, number> = { CRITICAL: 5, ERROR: 4, WARNING: 3, NOTICE: 2 };

export function crsAvailable(crsDir: string): boolean {
  return existsSync(join(crsDir, 'rules', 'REQUEST-901-INITIALIZATION.conf'));
}

/** "REQUEST-942-APPLICATION-ATTACK-SQLI.conf" → "OWASP Application Attack SQLI". */
function groupName(file: string): string {
  const words = basename(file, '.conf').split('-').slice(2);
  return `OWASP ${words.map((w) => (w.length <= 4 ? w : w[0] + w.slice(1).toLowerCase())).join(' ')}`;
}

/**
 * The paranoia level whose anomaly score a rule adds to (`setvar:'tx.anomaly_score_plN=+…'`): for the
 * few detection rules the CRS ships without a `paranoia-level/N` tag (3.3.4: 921200, LDAP injection).
 */
function scoredLevel(actions: ReadonlyArray<{ name: string; arg: string }>): number | undefined {
  for (const a of actions) {
    const m = a.name === 'setvar' ? /^'?tx\.anomaly_score_pl([1-4])=\+/i.exec(a.arg) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * Reads the CRS request rules with seclang (metadata only: ids, messages, tags, paranoia levels). Rules
 * without a message or a paranoia level (tag, else the score they add) are the CRS's own plumbing (markers, counters) and are left
 * out; so is the blocking evaluation, which the anomaly-score rule stands for.
 */
export function readCrs(crsDir: string): CrsCatalogue {
  if (!crsAvailable(crsDir)) throw new CrsNotFoundError(`No OWASP CRS found in ${join(crsDir, 'rules')}`);
  const waf = loadCrsSync({ crsDir, setupFile: null, warmUp: false });
  const rules: CrsRule[] = [];
  for (const rule of waf.ruleset.rules()) {
    const file = basename(rule.location.file);
    if (!file.startsWith('REQUEST-9') || rule.id === ANOMALY_CRS_ID || !rule.msgText) continue;
    const plTag = rule.tags.find((t) => /^paranoia-level\/[1-4]$/.test(t));
    const level = plTag ? Number(plTag.slice(-1)) : scoredLevel(rule.actions);
    if (level === undefined) continue;
    rules.push({
      crsId: rule.id,
      file,
      message: rule.msgText,
      paranoiaLevel: level as 1 | 2 | 3 | 4,
      tags: rule.tags.filter((t) => t !== plTag),
      score: SEVERITY_SCORE[(rule.severity ?? '').toUpperCase()] ?? 0,
    });
  }
  rules.sort((a, b) => a.crsId - b.crsId);
  const groups = new Map<string, CrsGroup>();
  for (const r of rules) {
    const g = groups.get(r.file) ?? { file: r.file, name: groupName(r.file), rules: [] };
    g.rules.push(r);
    groups.set(r.file, g);
  }
  return { groups: [...groups.values()].sort((a, b) => a.file.localeCompare(b.file)), rules };
}

export const owaspRuleId = (crsId: number) =>
  crsId === ANOMALY_CRS_ID ? ANOMALY_RULE_ID : stableId(`owasp-rule:${crsId}`);

/** CRS tags as Cloudflare-style categories: `paranoia-level-N`, `attack-sqli`, `language-php`, … */
export function owaspCategories(rule: CrsRule): string[] {
  const out = new Set<string>([`paranoia-level-${rule.paranoiaLevel}`]);
  for (const tag of rule.tags) {
    const t = tag.toLowerCase();
    if (/^(attack|language|platform|application)-[a-z0-9-]+$/.test(t)) out.add(t);
  }
  return [...out];
}
