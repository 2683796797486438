import type { Draft, MappingInput, MappingRow } from './types.ts';

/**
 * The seed's table "Old sensitivity to new OWASP settings", one row each: the paranoia level of the
 * OWASP Core Ruleset and its score threshold (Medium = 40 or higher, High = 25 or higher). "Default" is
 * a zone that never changed the OWASP package's sensitivity.
 */
function sensitivityRow(
  name: string,
  sensitivity: 'high' | 'medium' | 'low' | 'default',
  paranoiaLevel: 1 | 2,
  scoreThreshold: number,
  threshold: string,
): MappingRow {
  return {
    name,
    row: `OWASP sensitivity ${sensitivity[0]!.toUpperCase()}${sensitivity.slice(1)} → PL${paranoiaLevel}, ${threshold}, ${scoreThreshold} or higher`,
    apply(input: MappingInput, draft: Draft) {
      const current = input.owaspDefaults ? 'default' : input.legacy.owasp.sensitivity;
      if (current !== sensitivity) return;
      draft.owasp.deployed = true;
      draft.owasp.paranoiaLevel = paranoiaLevel;
      draft.owasp.scoreThreshold = scoreThreshold;
    },
  };
}

export const owaspSensitivityHigh = sensitivityRow('owaspSensitivityHigh', 'high', 2, 40, 'Medium');
export const owaspSensitivityMedium = sensitivityRow('owaspSensitivityMedium', 'medium', 1, 25, 'High');
export const owaspSensitivityLow = sensitivityRow('owaspSensitivityLow', 'low', 1, 40, 'Medium');
export const owaspSensitivityDefault = sensitivityRow('owaspSensitivityDefault', 'default', 2, 40, 'Medium');

/**
 * Sensitivity Off disabled the whole OWASP package in the previous WAF (reference §2.1): the OWASP Core
 * Ruleset is not deployed. (Not a row of the seed's table, which is silent on Off.)
 */
export const owaspSensitivityOff: MappingRow = {
  name: 'owaspSensitivityOff',
  row: 'OWASP sensitivity Off → OWASP Core Ruleset not deployed',
  apply(input, draft) {
    if (!input.owaspDefaults && input.legacy.owasp.sensitivity === 'off') draft.owasp.deployed = false;
  },
};
