/**
 * What the engine decides for a request: the events it produced (in order) and, when some rule stopped
 * the request, the terminating one.
 */

/** Actions that end the request at the edge. Challenges are answered as a block page (no browser here). */
export type TerminalAction = 'block' | 'challenge' | 'js_challenge' | 'managed_challenge';
export type EventAction = TerminalAction | 'log' | 'skip' | 'allow' | 'bypass';

/**
 * Where an event comes from (the names of the real Security Events `source`): custom rules, the new
 * managed rules, the previous WAF managed rules, and firewall rules.
 */
export type EventSource = 'firewallCustom' | 'firewallManaged' | 'waf' | 'firewallRules';

export const TERMINAL_ACTIONS: ReadonlySet<string> = new Set<TerminalAction>([
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
]);

export const isTerminal = (action: string): action is TerminalAction => TERMINAL_ACTIONS.has(action);

/** A piece of the request that made a rule match, e.g. `{ name: 'ARGS:id', value: "1' or '1'='1" }`. */
export interface MatchedDatum {
  name: string;
  value: string;
  /** CRS rule id, for the OWASP rules that added to the anomaly score. */
  ruleId?: string;
  message?: string;
}

export interface RuleEvent {
  source: EventSource;
  action: EventAction;
  /** Which WAF implementation produced it: the new one (rulesets) or the previous one; null: neither. */
  waf: 'new' | 'previous' | null;
  phase: string | null;
  rulesetId: string | null;
  ruleId: string;
  description: string;
  matchedData: MatchedDatum[];
}

/** A custom block response (`block` rules' `action_parameters.response`). */
export interface BlockResponse {
  statusCode: number;
  content: string;
  contentType: string;
}

export interface Terminal {
  action: TerminalAction;
  event: RuleEvent;
  response?: BlockResponse;
}

export interface Verdict {
  events: RuleEvent[];
  terminal?: Terminal;
  /** Every terminating decision in validation mode (new WAF first); `terminal` is the first. */
  decisions: Terminal[];
}

export const MAX_SNIPPET = 128;

/** A matched value as stored: at most MAX_SNIPPET characters. */
export function snippet(value: string): string {
  return value.length <= MAX_SNIPPET ? value : `${value.slice(0, MAX_SNIPPET)}…`;
}
