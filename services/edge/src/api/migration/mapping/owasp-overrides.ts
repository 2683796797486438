import { MIGRATION_CODES, message } from '../errors.ts';
import type { MappingRow } from './types.ts';

/**
 * Seed: "Not migrated (must be recreated in the new OWASP Core Ruleset): OWASP group overrides and OWASP
 * rule overrides." Each one is listed in the answer's messages, with its id and mode.
 */
export const owaspGroupOverrides: MappingRow = {
  name: 'owaspGroupOverrides',
  row: 'OWASP group overrides (not migrated)',
  apply({ legacy }, draft) {
    for (const [id, mode] of legacy.owasp.groupModes) {
      draft.messages.push(
        message(
          MIGRATION_CODES.notMigrated,
          `not migrated: the OWASP group override of group ${id} (mode ${mode}); recreate it in the OWASP Core Ruleset with a category or rule override`,
        ),
      );
    }
  },
};

export const owaspRuleOverrides: MappingRow = {
  name: 'owaspRuleOverrides',
  row: 'OWASP rule overrides (not migrated)',
  apply({ legacy }, draft) {
    for (const [id, mode] of legacy.owasp.ruleModes) {
      draft.messages.push(
        message(
          MIGRATION_CODES.notMigrated,
          `not migrated: the OWASP rule override of rule ${id} (mode ${mode}); recreate it in the OWASP Core Ruleset with a rule override`,
        ),
      );
    }
  },
};
