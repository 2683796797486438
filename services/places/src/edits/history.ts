import type { AuthContext } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { placeNotFound } from '../errors.ts';
import { parseInteger } from '../search/params.ts';
import { type HistoryRow, historyOf } from '../store/history.ts';
import { findPlace } from '../store/places-read.ts';
import { contributorHandle } from './handles.ts';
import { type ApiParams, ParamReader } from './params.ts';
import { placeIdParam } from './suggest.ts';
import type { Json } from './types.ts';

/**
 * Who made a change. The organization the change came through sees its ids; every other organization sees
 * only an opaque, stable handle of the contributor and the kind of credential (README, "Attribution").
 */
export type HistoryAttribution =
  | {
      contributor: string | null;
      organization_id: string | null;
      app_id: string | null;
      user_id: number | null;
      credential_kind: string;
    }
  | { contributor: string; credential_kind: string };

export interface HistoryItem {
  id: number;
  edit_id: string;
  suggested_edit_type: string;
  action: 'apply' | 'rollback';
  field: string;
  from: Json;
  to: Json;
  at: string;
  attribution: HistoryAttribution;
}

async function attributionFor(
  deps: PlacesDeps,
  viewer: AuthContext,
  row: HistoryRow,
): Promise<HistoryAttribution> {
  if (row.organization_id === null) {
    // A rollback by an operator: no organization, nothing to hide.
    return {
      contributor: null,
      organization_id: null,
      app_id: null,
      user_id: null,
      credential_kind: row.credential_kind,
    };
  }
  const contributor = await contributorHandle(
    deps,
    row.user_id === null ? `organization:${row.organization_id}` : `user:${row.user_id}`,
  );
  if (row.organization_id !== viewer.organizationId)
    return { contributor, credential_kind: row.credential_kind };
  return {
    contributor,
    organization_id: row.organization_id,
    app_id: row.app_id,
    user_id: row.user_id,
    credential_kind: row.credential_kind,
  };
}

/**
 * `GET /places/{fsq_place_id}/history` (our extension): every field change applied to the place by an
 * accepted edit, and every rollback, newest first, with who and when. Also answers for a place that a
 * removal or merge took out. `limit` 1–100 (default 50); `before` (an item's id) pages back.
 */
export async function placeHistory(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<{ fsq_place_id: string; history: HistoryItem[] }> {
  const p = new ParamReader(params, ['fsq_place_id', 'limit', 'before']);
  const id = placeIdParam(p);
  const limitText = p.text('limit');
  const limit = limitText === undefined ? 50 : parseInteger('limit', limitText, 1, 100);
  const beforeText = p.text('before');
  const before = beforeText === undefined ? undefined : parseInteger('before', beforeText, 1, 999_999_999);
  const rows = await historyOf(deps.db, id, limit, before);
  if (rows.length === 0 && before === undefined && !(await findPlace(deps.db, id))) throw placeNotFound(id);
  const history: HistoryItem[] = [];
  for (const r of rows) {
    history.push({
      id: r.id,
      edit_id: r.edit_id,
      suggested_edit_type: r.suggested_edit_type,
      action: r.action,
      field: r.field,
      from: r.from,
      to: r.to,
      at: r.at.toISOString(),
      attribution: await attributionFor(deps, auth, r),
    });
  }
  return { fsq_place_id: id, history };
}
