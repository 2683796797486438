import { newId, type Queryable } from '@cairn/kit';
import { type PlaceRecord, placemakerUrl } from '../data/place-record.ts';
import type { PlacesDeps } from '../deps.ts';
import { timeZoneAt } from '../reference/time-zone.ts';
import { type HistoryEntry, insertHistory } from '../store/history.ts';
import { insertTips } from '../store/media.ts';
import { lockPlace, type PlaceRow } from '../store/places-read.ts';
import { namesOf, writePlaces } from '../store/places-write.ts';
import { setDescription, takeOutPlace } from '../store/removed.ts';
import {
  describe,
  fieldValue,
  isEditable,
  MERGED_INTO,
  REMOVED,
  recordOf,
  sameValue,
  setField,
} from './changes.ts';
import { TIP } from './tip.ts';
import type { Change, EditRow } from './types.ts';

/**
 * Applies an accepted edit inside the caller's transaction: each place it touches is locked, each change's
 * `from` is compared with the field's current value (a difference makes the edit stale and nothing is
 * written), then the place is written and every changed field recorded in the history.
 */
export type ApplyResult = { ok: true; createdPlaceId?: string } | { ok: false; reason: string };

const day = (at: Date) => at.toISOString().slice(0, 10);

export async function applyEdit(
  tx: Queryable,
  deps: PlacesDeps,
  edit: EditRow,
  at: Date,
): Promise<ApplyResult> {
  if (edit.suggested_edit_type === 'new_place') return createPlace(tx, deps, edit, at);
  const placeId = edit.fsq_place_id!;
  const place = await lockPlace(tx, placeId);
  if (!place)
    return { ok: false, reason: `the place ${placeId} was removed or merged since the edit was suggested` };
  const history: HistoryEntry[] = [];
  const entry = (c: Change, fsqPlaceId: string): HistoryEntry => ({
    fsq_place_id: fsqPlaceId,
    edit_id: edit.id,
    action: 'apply',
    field: c.field,
    from: c.from,
    to: c.to,
    at,
    organization_id: edit.organization_id,
    app_id: edit.app_id,
    user_id: edit.user_id,
    credential_kind: edit.credential_kind,
  });

  const fieldChanges = edit.changes.filter((c) => isEditable(c.field));
  const stale = staleField(place, fieldChanges);
  if (stale) return { ok: false, reason: stale };
  const merged = edit.changes.filter((c) => c.field === MERGED_INTO);
  const duplicates: PlaceRow[] = [];
  for (const c of merged) {
    const duplicate = await lockPlace(tx, c.fsq_place_id!);
    if (!duplicate) {
      return {
        ok: false,
        reason: `the duplicate ${c.fsq_place_id} was removed or merged since the edit was suggested`,
      };
    }
    duplicates.push(duplicate);
  }

  if (fieldChanges.length > 0) {
    const record = recordOf(place);
    const reference = deps.reference();
    for (const c of fieldChanges) if (isEditable(c.field)) setField(record, c.field, c.to, reference);
    record.date_refreshed = day(at);
    await writePlaces(tx, [record], namesOf(reference));
    if (fieldChanges.some((c) => c.field === 'description'))
      await setDescription(tx, placeId, record.description);
    history.push(...fieldChanges.map((c) => entry(c, placeId)));
  }
  for (const c of merged) {
    await takeOutPlace(tx, c.fsq_place_id!, edit.id, at);
    history.push(entry(c, c.fsq_place_id!));
  }
  const tip = edit.changes.find((c) => c.field === TIP);
  if (tip) {
    await storeTip(tx, edit, tip.to as TipChange, at);
    history.push(entry(tip, placeId));
  }
  const removal = edit.changes.find((c) => c.field === REMOVED);
  if (removal) {
    await takeOutPlace(tx, placeId, edit.id, at);
    history.push(entry(removal, placeId));
  }
  await insertHistory(tx, history);
  return { ok: true };
}

type TipChange = { fsq_tip_id: string; text: string; lang: string; url?: string };

/** An accepted tip, stored with its author's attribution and the day it was accepted. */
async function storeTip(tx: Queryable, edit: EditRow, tip: TipChange, at: Date) {
  await insertTips(tx, [
    {
      fsq_tip_id: tip.fsq_tip_id,
      fsq_place_id: edit.fsq_place_id!,
      created_at: at,
      text: tip.text,
      lang: tip.lang,
      url: tip.url ?? null,
      source: 'edit',
      edit_id: edit.id,
      organization_id: edit.organization_id,
      app_id: edit.app_id,
      user_id: edit.user_id,
    },
  ]);
}

/** The first change whose field no longer holds the value the edit was made against, as a sentence. */
function staleField(place: PlaceRow, changes: readonly Change[]): string | undefined {
  for (const c of changes) {
    if (!isEditable(c.field)) continue;
    const now = fieldValue(place, c.field);
    if (!sameValue(now, c.from)) {
      return `stale: ${c.field} changed since the edit was suggested (it was ${describe(c.from)} and is now ${describe(now)}); suggest the edit again against the current place`;
    }
  }
  return undefined;
}

/** A new place from a new-place suggestion: its id is made now, its fields are the suggestion's. */
async function createPlace(tx: Queryable, deps: PlacesDeps, edit: EditRow, at: Date): Promise<ApplyResult> {
  const id = newId().replace(/-/g, '').slice(0, 24);
  const values = new Map(edit.changes.map((c) => [c.field, c.to]));
  const latitude = values.get('latitude') as number;
  const longitude = values.get('longitude') as number;
  const base: PlaceRecord & { description: string | null } = {
    fsq_place_id: id,
    name: values.get('name') as string,
    latitude,
    longitude,
    address: null,
    locality: null,
    region: null,
    postcode: null,
    admin_region: null,
    post_town: null,
    po_box: null,
    country: null,
    date_created: day(at),
    date_refreshed: day(at),
    date_closed: null,
    tel: null,
    website: null,
    email: null,
    facebook_id: null,
    instagram: null,
    twitter: null,
    fsq_category_ids: [],
    fsq_category_labels: [],
    placemaker_url: placemakerUrl(id),
    unresolved_flags: [],
    fsq_chain_ids: [],
    price: null,
    rating: null,
    popularity: null,
    hours: null,
    time_zone: timeZoneAt(latitude, longitude),
    description: null,
  };
  const reference = deps.reference();
  for (const c of edit.changes) if (isEditable(c.field)) setField(base, c.field, c.to, reference);
  await writePlaces(tx, [base], namesOf(reference));
  if (base.description !== null) await setDescription(tx, id, base.description);
  await insertHistory(
    tx,
    edit.changes.map((c) => ({
      fsq_place_id: id,
      edit_id: edit.id,
      action: 'apply' as const,
      field: c.field,
      from: null,
      to: c.to,
      at,
      organization_id: edit.organization_id,
      app_id: edit.app_id,
      user_id: edit.user_id,
      credential_kind: edit.credential_kind,
    })),
  );
  return { ok: true, createdPlaceId: id };
}
