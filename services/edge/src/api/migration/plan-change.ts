import type { Message } from '../envelope.ts';
import { type PlanName, planLabel } from '../zones/plans.ts';
import type { MigrationState } from '../zones/store.ts';
import { MIGRATION_CODES, message } from './errors.ts';

/**
 * The upgrade state a plan change leads to, or undefined when it stays. The seed's rules decide:
 * - a Free zone never had the previous WAF (`default`); a paid plan gives it the previous WAF (`start`);
 * - validation mode is Enterprise only, and on Pro and Business "when the new version is enabled, the
 *   previous version is disabled automatically". In validation mode the new version is enabled, so a zone
 *   leaving Enterprise leaves validation forward, to `complete` (the seed has no way back to `start`);
 * - a paid zone not upgraded (`start`) keeps its state on Free: its previous configuration is kept, does
 *   not run on Free, and runs again on a paid plan;
 * - `complete` is irreversible.
 */
export function stateAfterPlanChange(state: MigrationState, plan: PlanName): MigrationState | undefined {
  if (state === 'default' && plan !== 'free') return 'start';
  if (state === 'validation' && plan !== 'enterprise') return 'complete';
  return undefined;
}

/** What the PATCH of the zone answers in `messages` when its plan moved the upgrade. */
export function planChangeMessage(
  zone: string,
  from: MigrationState,
  to: MigrationState,
  plan: PlanName,
): Message {
  const text =
    to === 'complete'
      ? `zone ${zone} is on ${planLabel(plan)} now and validation mode needs the Enterprise plan: the upgrade is finished (migration_state ${from} → complete) with the configuration validated so far; the new WAF Managed Rules stay enabled and the previous version is disabled. The upgrade is irreversible`
      : `zone ${zone} is on ${planLabel(plan)} now and gets the previous WAF managed rules (migration_state ${from} → ${to}); upgrade it with GET /zones/{id}/waf_migration/check?phase_two=1`;
  return message(MIGRATION_CODES.transition, text);
}
