import type { MigrationState, Zone } from '../api.ts';

export const STATE_LABELS: Record<MigrationState, string> = {
  default: 'WAF Managed Rules not deployed',
  start: 'Previous version of the WAF managed rules',
  validation: 'Validation mode: both versions running',
  complete: 'New WAF Managed Rules',
};

export function PlanBadge(props: { zone: Zone }) {
  return <span class={`badge plan-${props.zone.plan.legacy_id}`}>{props.zone.plan.name}</span>;
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function ErrorText(props: { error: string | undefined }) {
  if (!props.error) return null;
  return (
    <p class="error" role="alert">
      {props.error}
    </p>
  );
}
