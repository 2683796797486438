import type { MappingRow } from './types.ts';

/** The previous OWASP package's action modes and the new OWASP Core Ruleset's actions. */
const ACTIONS: Record<string, string> = { simulate: 'log', block: 'block', challenge: 'challenge' };

/**
 * Seed row "OWASP action": Simulate becomes Log, the others map directly (Block → block, Challenge →
 * challenge); set on the anomaly-score rule 949110, with the score threshold.
 */
export const owaspAction: MappingRow = {
  name: 'owaspAction',
  row: 'OWASP action (Simulate becomes Log; other actions map directly)',
  apply({ legacy }, draft) {
    draft.owasp.action = ACTIONS[legacy.owasp.actionMode] ?? 'block';
  },
};
