import type { Queryable } from '@cairn/kit';

/**
 * The outcomes that trust is computed from, per contributor and organization: resolved edits by status (stale
 * rejections left out), and non-skip votes on resolved edits, agreeing or not with the outcome (a rolled-back
 * edit counts as refused).
 */
export interface OutcomeRow {
  contributor: string;
  organization_id: string;
  edits_accepted: number;
  edits_rejected: number;
  edits_rolled_back: number;
  votes_agreed: number;
  votes_disagreed: number;
}

export async function outcomesOf(db: Queryable, contributors: readonly string[]): Promise<OutcomeRow[]> {
  if (contributors.length === 0) return [];
  const { rows } = await db.query<OutcomeRow>(
    `WITH edits AS (
       SELECT contributor, organization_id,
              count(*) FILTER (WHERE status = 'accepted') AS edits_accepted,
              count(*) FILTER (WHERE status = 'rejected') AS edits_rejected,
              count(*) FILTER (WHERE status = 'rolled_back') AS edits_rolled_back
         FROM places_edits
        WHERE contributor = ANY($1::text[]) AND status <> 'pending' AND resolution IS DISTINCT FROM 'stale'
        GROUP BY contributor, organization_id),
     votes AS (
       SELECT v.contributor, v.organization_id,
              count(*) FILTER (WHERE (v.vote = 'approve') = (e.status = 'accepted')) AS votes_agreed,
              count(*) FILTER (WHERE (v.vote = 'approve') <> (e.status = 'accepted')) AS votes_disagreed
         FROM places_edit_votes v JOIN places_edits e ON e.id = v.edit_id
        WHERE v.contributor = ANY($1::text[]) AND v.vote <> 'skip' AND e.status <> 'pending'
          AND e.resolution IS DISTINCT FROM 'stale'
        GROUP BY v.contributor, v.organization_id)
     SELECT coalesce(e.contributor, v.contributor) AS contributor,
            coalesce(e.organization_id, v.organization_id) AS organization_id,
            coalesce(e.edits_accepted, 0)::int AS edits_accepted,
            coalesce(e.edits_rejected, 0)::int AS edits_rejected,
            coalesce(e.edits_rolled_back, 0)::int AS edits_rolled_back,
            coalesce(v.votes_agreed, 0)::int AS votes_agreed,
            coalesce(v.votes_disagreed, 0)::int AS votes_disagreed
       FROM edits e FULL JOIN votes v ON v.contributor = e.contributor AND v.organization_id = e.organization_id`,
    [[...contributors]],
  );
  return rows;
}

/** Counts for the contributor's own figures: pending edits and votes, skips, stale edits. */
export async function activityOf(
  db: Queryable,
  contributor: string,
): Promise<
  {
    organization_id: string;
    edits_pending: number;
    edits_stale: number;
    votes_pending: number;
    votes_skipped: number;
  }[]
> {
  const { rows } = await db.query<{
    organization_id: string;
    edits_pending: number;
    edits_stale: number;
    votes_pending: number;
    votes_skipped: number;
  }>(
    `WITH e AS (
       SELECT organization_id, count(*) FILTER (WHERE status = 'pending') AS edits_pending,
              count(*) FILTER (WHERE resolution = 'stale') AS edits_stale
         FROM places_edits WHERE contributor = $1 GROUP BY organization_id),
     v AS (
       SELECT v.organization_id,
              count(*) FILTER (WHERE v.vote <> 'skip' AND e.status = 'pending') AS votes_pending,
              count(*) FILTER (WHERE v.vote = 'skip') AS votes_skipped
         FROM places_edit_votes v JOIN places_edits e ON e.id = v.edit_id
        WHERE v.contributor = $1 GROUP BY v.organization_id)
     SELECT coalesce(e.organization_id, v.organization_id) AS organization_id,
            coalesce(e.edits_pending, 0)::int AS edits_pending, coalesce(e.edits_stale, 0)::int AS edits_stale,
            coalesce(v.votes_pending, 0)::int AS votes_pending, coalesce(v.votes_skipped, 0)::int AS votes_skipped
       FROM e FULL JOIN v ON v.organization_id = e.organization_id`,
    [contributor],
  );
  return rows;
}
