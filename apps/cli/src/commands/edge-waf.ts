import {
  ANOMALY_RULE_ID,
  DEFAULT_SCORE_THRESHOLD,
  EDGE_MANAGED_RULESET_ID,
  findZone,
  findZoneByName,
  getEntrypoint,
  OWASP_RULESET_ID,
  putEntrypoint,
  type RuleInput,
  wafWarnings,
  type Zone,
} from '@cairn/edge';
import { type CommandSpec, optionalString, type ParsedArgs, requiredString, UsageError } from '../command.ts';

// `cairn edge waf deploy|show`: the new WAF as the Rulesets API sets it up (the same service functions the
// API's PUT …/phases/http_request_firewall_managed/entrypoint calls): execute rules for the Cloudflare
// Managed Ruleset and the OWASP Core Ruleset, the OWASP paranoia level as category overrides, the
// threshold and action as an override of the anomaly rule (949110).

const PHASE = 'http_request_firewall_managed';
const ACTIONS = ['block', 'managed_challenge', 'js_challenge', 'challenge', 'log'];
const RULESETS: Record<string, string> = { managed: EDGE_MANAGED_RULESET_ID, owasp: OWASP_RULESET_ID };

interface StoredRule {
  action?: string;
  expression?: string;
  description?: string;
  enabled?: boolean;
  action_parameters?: { id?: string; overrides?: Overrides } & Record<string, unknown>;
  logging?: { enabled: boolean };
}

interface Overrides {
  categories?: { category: string; enabled?: boolean }[];
  rules?: { id: string; action?: string; score_threshold?: number }[];
}

async function zoneOf(args: ParsedArgs, db: Parameters<typeof findZone>[0]): Promise<Zone> {
  const z = requiredString(args, 'zone');
  const zone = /^[0-9a-f]{32}$/.test(z) ? await findZone(db, z) : await findZoneByName(db, z.toLowerCase());
  if (!zone) throw new UsageError(`no zone "${z}" (see: cairn edge zones list)`);
  return zone;
}

function intOption(args: ParsedArgs, name: string, min: number, max: number, fallback: number): number {
  const text = optionalString(args, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return n;
}

/** The zone's managed entry point rules, or none when it has no entry point yet. */
async function currentRules(deps: Parameters<typeof getEntrypoint>[0], zone: Zone): Promise<StoredRule[]> {
  try {
    return ((await getEntrypoint(deps, zone, PHASE)) as { rules?: StoredRule[] }).rules ?? [];
  } catch (error) {
    if ((error as { status?: number }).status === 404) return [];
    throw error;
  }
}

const asInput = (r: StoredRule): RuleInput =>
  ({
    action: r.action,
    expression: r.expression,
    ...(r.description ? { description: r.description } : {}),
    ...(r.enabled === undefined ? {} : { enabled: r.enabled }),
    ...(r.action_parameters ? { action_parameters: r.action_parameters } : {}),
    ...(r.logging ? { logging: r.logging } : {}),
  }) as RuleInput;

export const edgeWafDeploy: CommandSpec = {
  options: {
    zone: { type: 'string' },
    rulesets: { type: 'string' },
    'paranoia-level': { type: 'string' },
    threshold: { type: 'string' },
    action: { type: 'string' },
  },
  optionHelp: {
    zone: 'zone name or id',
    rulesets:
      'comma-separated: managed (the Cloudflare Managed Ruleset), owasp (the OWASP Core Ruleset); default managed,owasp',
    'paranoia-level':
      'OWASP paranoia level 1-4 (default 1): the paranoia-level categories above it are disabled',
    threshold: `OWASP anomaly-score threshold (default ${DEFAULT_SCORE_THRESHOLD}, the real service's Medium; High is 25, Low 60; ModSecurity's default is 5, one critical rule)`,
    action: `what the OWASP ruleset does above the threshold: ${ACTIONS.join(', ')} (default block)`,
  },
  usesDatabase: true,
  async run(args, ctx) {
    const names = (optionalString(args, 'rulesets') ?? 'managed,owasp').split(',').map((s) => s.trim());
    for (const n of names)
      if (!RULESETS[n]) throw new UsageError(`--rulesets: "${n}" is not managed or owasp`);
    const pl = intOption(args, 'paranoia-level', 1, 4, 1);
    const threshold = intOption(args, 'threshold', 1, 1000, DEFAULT_SCORE_THRESHOLD);
    const action = optionalString(args, 'action') ?? 'block';
    if (!ACTIONS.includes(action))
      throw new UsageError(`--action must be one of ${ACTIONS.join(', ')}, not "${action}"`);
    const { edge } = await ctx.runtime();
    const zone = await zoneOf(args, edge.deps.db);
    const ours = new Set(Object.values(RULESETS));
    // WAF exceptions (skip rules) and other rules stay, before the managed rulesets they exempt from.
    const kept = (await currentRules(edge.deps, zone)).filter(
      (r) => !(r.action === 'execute' && ours.has(r.action_parameters?.id ?? '')),
    );
    const executes: StoredRule[] = names.map((n) =>
      n === 'managed'
        ? {
            action: 'execute',
            expression: 'true',
            description: 'Cloudflare Managed Ruleset',
            action_parameters: { id: EDGE_MANAGED_RULESET_ID },
          }
        : {
            action: 'execute',
            expression: 'true',
            description: 'OWASP Core Ruleset',
            action_parameters: {
              id: OWASP_RULESET_ID,
              overrides: {
                ...(pl < 4
                  ? {
                      categories: [2, 3, 4]
                        .filter((n) => n > pl)
                        .map((n) => ({ category: `paranoia-level-${n}`, enabled: false })),
                    }
                  : {}),
                rules: [{ id: ANOMALY_RULE_ID, score_threshold: threshold, action }],
              },
            },
          },
    );
    const rules = [...kept, ...executes].map(asInput);
    const result = await putEntrypoint(edge.deps, zone, PHASE, { rules });
    const warnings = wafWarnings(rules as StoredRule[], edge.deps.catalogue).map((m) => m.message);
    if (zone.wafMigrationState === 'start')
      warnings.push(
        `zone ${zone.name} still uses the previous WAF managed rules: this runs only after the upgrade (cairn edge zones list shows the state)`,
      );
    if (ctx.json) ctx.out.json({ result, messages: warnings });
    else {
      const what = names.map((n) =>
        n === 'owasp'
          ? `OWASP Core Ruleset (PL${pl}, threshold ${threshold}, ${action})`
          : 'Cloudflare Managed Ruleset',
      );
      ctx.out.line(
        `Deployed on ${zone.name}: ${what.join(' and ')}${kept.length ? `, after ${kept.length} rule(s) kept` : ''}`,
      );
      for (const w of warnings) ctx.out.line(`warning: ${w}`);
    }
    return 0;
  },
};

export const edgeWafShow: CommandSpec = {
  options: { zone: { type: 'string' } },
  optionHelp: { zone: 'zone name or id' },
  usesDatabase: true,
  async run(args, ctx) {
    const { edge } = await ctx.runtime();
    const zone = await zoneOf(args, edge.deps.db);
    const rules = await currentRules(edge.deps, zone);
    const lines = rules.map((r) => {
      const id = r.action_parameters?.id;
      if (r.action !== 'execute') return `${r.action} rule: ${r.description || r.expression}`;
      const off = r.enabled === false ? ' (disabled)' : '';
      if (id === EDGE_MANAGED_RULESET_ID) return `Cloudflare Managed Ruleset${off}`;
      if (id !== OWASP_RULESET_ID) return `execute ${id}${off}`;
      const o = r.action_parameters?.overrides;
      const disabled = new Set(o?.categories?.filter((c) => c.enabled === false).map((c) => c.category));
      const pl = [4, 3, 2, 1].find((n) => !disabled.has(`paranoia-level-${n}`)) ?? 0;
      const anomaly = o?.rules?.find((x) => x.id === ANOMALY_RULE_ID);
      return `OWASP Core Ruleset${off}: PL${pl}, threshold ${anomaly?.score_threshold ?? DEFAULT_SCORE_THRESHOLD}, action ${anomaly?.action ?? 'block'}`;
    });
    const warnings = wafWarnings(rules, edge.deps.catalogue).map((m) => m.message);
    if (ctx.json) ctx.out.json({ rules, messages: warnings });
    else {
      ctx.out.line(
        lines.length
          ? lines.join('\n')
          : `${zone.name} has no managed rulesets deployed (cairn edge waf deploy --zone ${zone.name})`,
      );
      for (const w of warnings) ctx.out.line(`warning: ${w}`);
    }
    return 0;
  },
};
