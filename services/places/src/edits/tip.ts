import { type AuthContext, newId } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter } from '../errors.ts';
import { languageOf } from '../media/tip-texts.ts';
import { type ApiParams, ParamReader } from './params.ts';
import { commentParam, createEdit, placeIdParam, placeOrNotFound, type SuggestResponse } from './suggest.ts';
import type { Json } from './types.ts';
import { plainText, website } from './values.ts';

/** The pseudo-field of a tip suggestion: its `to` is the tip ({fsq_tip_id, text, lang, url?}). */
export const TIP = 'tip';
export const MAX_TIP_TEXT = 500;

/**
 * A tip, suggested like an edit (the place editor's "Add a tip"): attributed to its author and decided by the
 * same votes and trust — a trusted author's tip is stored at once, a new user's waits for independent
 * approvals, and a rejected one is never shown. When accepted it is stored in places_tips and
 * `/places/{id}/tips` shows it; an operator's rollback takes it out again.
 */
export async function suggestTip(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<SuggestResponse> {
  const p = new ParamReader(params, ['fsq_place_id', 'text', 'lang', 'url', 'comment', 'dry_run']);
  const id = placeIdParam(p);
  const text = plainText('text', p.required('text', 'what you want to tell visitors'), MAX_TIP_TEXT);
  const langText = p.text('lang')?.trim().toLowerCase();
  if (langText !== undefined && !/^[a-z]{2}$/.test(langText))
    throw invalidParameter(
      'lang',
      `"${langText.slice(0, 20)}" is not a two-letter language code such as en or fr`,
    );
  const urlText = p.text('url');
  const url = urlText === undefined || urlText.trim() === '' ? undefined : website('url', urlText);
  const dryRun = p.dryRun();
  const details = commentParam(p);
  const edit = await createEdit(deps, auth, dryRun, async (tx) => {
    const place = await placeOrNotFound(tx, id);
    const tip: Record<string, Json> = {
      fsq_tip_id: newId().replace(/-/g, '').slice(0, 24),
      text,
      lang: langText ?? languageOf(place.country),
    };
    if (url !== undefined) tip.url = url;
    return {
      type: 'tip',
      placeId: id,
      changes: [{ fsq_place_id: id, field: TIP, from: null, to: tip }],
      details,
      latitude: place.latitude,
      longitude: place.longitude,
    };
  });
  return { suggested_edits: [edit], errors: [] };
}
