import type { AuthContext, Queryable } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter } from '../errors.ts';
import { parseInteger } from '../search/params.ts';
import { editsBy, getEdits } from '../store/edits.ts';
import { tallies } from '../trust/tally.ts';
import { type ApiParams, ParamReader } from './params.ts';
import { type EditView, renderEdit } from './render.ts';
import { contributorOf, type EditRow } from './types.ts';
import { editId } from './values.ts';

/** Renders edits for a viewer with their tallies and the viewer's votes. */
export async function viewEdits(
  db: Queryable,
  deps: PlacesDeps,
  edits: readonly EditRow[],
  viewer: string,
): Promise<EditView[]> {
  const { tallies: counted, votes } = await tallies(db, deps.edits, edits);
  return edits.map((e) => renderEdit(e, { viewer, tally: counted.get(e.id)!, votes: votes.get(e.id) ?? [] }));
}

/**
 * `GET /places/suggest/status`: the edits named in `suggested_edit_ids` (any contributor's; unknown ids are
 * left out), or else the caller's own edits, newest first — a user's, or for a service key its
 * organization's service-key edits. `limit` 0–50, default 10.
 */
export async function editStatus(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<{ suggested_edits: EditView[] }> {
  const p = new ParamReader(params, ['suggested_edit_ids', 'limit']);
  const limitText = p.text('limit');
  const limit = limitText === undefined ? 10 : parseInteger('limit', limitText, 0, 50);
  const idsText = p.text('suggested_edit_ids');
  const viewer = contributorOf(auth);
  let edits: EditRow[];
  if (idsText !== undefined) {
    const ids = [
      ...new Set(
        idsText
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      ),
    ];
    if (ids.length === 0)
      throw invalidParameter('suggested_edit_ids', 'give a comma list of suggested edit ids');
    if (ids.length > 50) throw invalidParameter('suggested_edit_ids', 'at most 50 ids');
    const parsed = ids.map((id) => editId('suggested_edit_ids', id));
    const found = new Map((await getEdits(deps.db, parsed)).map((e) => [e.id, e]));
    edits = parsed.flatMap((id) => found.get(id) ?? []).slice(0, limit);
  } else {
    edits = limit === 0 ? [] : await editsBy(deps.db, viewer, limit);
  }
  return { suggested_edits: await viewEdits(deps.db, deps, edits, viewer) };
}
