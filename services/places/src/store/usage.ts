import type { Queryable } from '@cairn/kit';

export interface UsageDelta {
  day: string;
  credentialId: string;
  endpoint: string;
  credentialKind: string;
  organizationId: string;
  appId: string | null;
  userId: number | null;
  calls: number;
  throttled: number;
  lastCallAt: Date;
}

export async function addUsage(db: Queryable, deltas: readonly UsageDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await db.query(
    `INSERT INTO places_usage (day, credential_id, endpoint, credential_kind, organization_id, app_id, user_id,
                               calls, throttled, last_call_at)
     SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int8[],
                          $8::int8[], $9::int8[], $10::timestamptz[])
     ON CONFLICT (day, credential_id, endpoint) DO UPDATE SET
       calls = places_usage.calls + EXCLUDED.calls,
       throttled = places_usage.throttled + EXCLUDED.throttled,
       last_call_at = greatest(places_usage.last_call_at, EXCLUDED.last_call_at)`,
    [
      deltas.map((d) => d.day),
      deltas.map((d) => d.credentialId),
      deltas.map((d) => d.endpoint),
      deltas.map((d) => d.credentialKind),
      deltas.map((d) => d.organizationId),
      deltas.map((d) => d.appId),
      deltas.map((d) => d.userId),
      deltas.map((d) => d.calls),
      deltas.map((d) => d.throttled),
      deltas.map((d) => d.lastCallAt.toISOString()),
    ],
  );
}

export interface UsageRow {
  credential_id: string;
  credential_kind: string;
  organization_id: string;
  app_id: string | null;
  user_id: number | null;
  endpoint: string;
  calls: number;
  throttled: number;
  first_day: string;
  last_call_at: Date;
}

/** Calls per credential and endpoint since `since` (YYYY-MM-DD), optionally for one organization. */
export async function listUsage(
  db: Queryable,
  options: { since?: string; organizationId?: string },
): Promise<UsageRow[]> {
  const { rows } = await db.query<UsageRow>(
    `SELECT credential_id, credential_kind, organization_id, app_id, user_id, endpoint,
            sum(calls)::int8 AS calls, sum(throttled)::int8 AS throttled,
            to_char(min(day), 'YYYY-MM-DD') AS first_day, max(last_call_at) AS last_call_at
       FROM places_usage
      WHERE ($1::date IS NULL OR day >= $1::date) AND ($2::text IS NULL OR organization_id = $2)
      GROUP BY credential_id, credential_kind, organization_id, app_id, user_id, endpoint
      ORDER BY organization_id, credential_id, endpoint`,
    [options.since ?? null, options.organizationId ?? null],
  );
  return rows;
}
