import { arcFor } from '../data/earth.ts';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter, matchNotFound, unsupportedCountry } from '../errors.ts';
import { mediaForFields } from '../media/endpoints.ts';
import { normalizeName } from '../reference/normalize.ts';
import type { MatchQueryValues } from '../routes/schemas.ts';
import { matchCandidates } from '../store/places-read.ts';
import { parseFields } from './fields.ts';
import { type LatLng, parseLatLng } from './params.ts';
import { renderPlace } from './render.ts';

/**
 * `GET /places/match`: the one place that is the given business, or 404 "Match not found". Candidates are the
 * places within 500 m of `ll` (or within the city's reach when only an address is given) whose names resemble
 * `name`; the score weighs name similarity, address agreement and nearness, from 0 to 1.
 */
export const MATCH_THRESHOLD = 0.5;

function tokens(text: string | null | undefined): Set<string> {
  return new Set(
    normalizeName(text ?? '')
      .split(' ')
      .filter((t) => t !== ''),
  );
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return common / Math.max(a.size, b.size);
}

export async function matchPlace(deps: PlacesDeps, query: MatchQueryValues) {
  const name = query.name.trim();
  const { address, city, state, cc, postal_code: postalCode } = query;
  const fields = parseFields(query.fields);
  const gazetteer = deps.gazetteer();
  if (cc !== undefined && !gazetteer.countries.has(cc.toUpperCase())) throw unsupportedCountry(cc);

  const llText = query.ll;
  let center: LatLng;
  let radius = 500;
  if (llText !== undefined) center = parseLatLng('ll', llText);
  else {
    const found = city ? gazetteer.resolve([city, state, cc].filter(Boolean).join(', ')) : undefined;
    if (!found) {
      throw invalidParameter(
        city ? 'city' : 'll',
        'Unable to resolve address: give ll, or a city (with cc, and state where names repeat) that the gazetteer knows',
      );
    }
    center = { latitude: found.latitude, longitude: found.longitude };
    radius = 25_000;
  }

  const wanted = tokens(address);
  let best: { row: Awaited<ReturnType<typeof matchCandidates>>[number]; score: number } | undefined;
  for (const row of await matchCandidates(deps.db, name, center, radius)) {
    const distance = arcFor(row.chord ?? 0);
    const near = llText !== undefined ? Math.max(0, 1 - distance / radius) : 0.5;
    const addressScore = wanted.size > 0 ? overlap(wanted, tokens(row.address)) : 0.5;
    const postal =
      postalCode && row.postcode ? (normalizeName(postalCode) === normalizeName(row.postcode) ? 1 : 0) : 0.5;
    const score = 0.55 * row.name_similarity + 0.2 * addressScore + 0.15 * near + 0.1 * postal;
    if (!best || score > best.score) best = { row, score };
  }
  if (!best || best.score < MATCH_THRESHOLD) throw matchNotFound();
  const media = await mediaForFields(deps.db, [best.row.fsq_place_id], fields);
  return {
    place: renderPlace(best.row, {
      reference: deps.reference(),
      fields,
      now: deps.clock.now(),
      publicUrl: deps.publicUrl,
      ...(media ? { media } : {}),
    }),
    match_score: Math.round(best.score * 1000) / 1000,
  };
}
