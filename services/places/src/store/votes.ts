import type { Queryable } from '@cairn/kit';
import type { VoteRow } from '../edits/types.ts';

const VOTE_COLUMNS = `edit_id, contributor, vote, created_at, updated_at, organization_id, app_id, user_id,
  credential_kind, credential_id`;

/** One vote per contributor and edit: a second vote replaces the first (and its attribution). */
export async function upsertVote(db: Queryable, vote: VoteRow): Promise<void> {
  await db.query(
    `INSERT INTO places_edit_votes (${VOTE_COLUMNS})
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (edit_id, contributor) DO UPDATE
       SET vote = EXCLUDED.vote, updated_at = EXCLUDED.updated_at, organization_id = EXCLUDED.organization_id,
           app_id = EXCLUDED.app_id, user_id = EXCLUDED.user_id, credential_kind = EXCLUDED.credential_kind,
           credential_id = EXCLUDED.credential_id`,
    [
      vote.edit_id,
      vote.contributor,
      vote.vote,
      vote.updated_at.toISOString(),
      vote.organization_id,
      vote.app_id,
      vote.user_id,
      vote.credential_kind,
      vote.credential_id,
    ],
  );
}

export async function votesOn(db: Queryable, editIds: readonly string[]): Promise<VoteRow[]> {
  if (editIds.length === 0) return [];
  const { rows } = await db.query<VoteRow>(
    `SELECT ${VOTE_COLUMNS} FROM places_edit_votes WHERE edit_id = ANY($1::text[]) ORDER BY created_at, contributor`,
    [[...editIds]],
  );
  return rows;
}
