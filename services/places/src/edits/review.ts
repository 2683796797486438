import type { AuthContext } from '@cairn/kit';
import { greatCircle } from '../data/earth.ts';
import type { PlacesDeps } from '../deps.ts';
import { conflictingParameters, invalidParameter } from '../errors.ts';
import { cityRadius, resolveNear } from '../search/near.ts';
import { type LatLng, parseInteger, parseLatLng } from '../search/params.ts';
import { renderPlace } from '../search/render.ts';
import { pendingEditsIn } from '../store/edits.ts';
import { findPlaces } from '../store/places-read.ts';
import { type ApiParams, ParamReader } from './params.ts';
import type { EditView } from './render.ts';
import { viewEdits } from './status.ts';
import { attributionOf, contributorOf, type EditRow } from './types.ts';

export interface ReviewVenue {
  fsq_place_id: string | null;
  venue_name: string;
  location: Record<string, unknown>;
  latitude: number;
  longitude: number;
  woe_types: string[];
  woe_count: number;
  woes: EditView[];
}

/** How many pending edits one request looks at before grouping them by place. */
const SCAN = 2000;
const DEFAULT_RADIUS = 22_000;

type Area =
  | { kind: 'circle'; center: LatLng; radius: number }
  | { kind: 'rectangle'; ne: LatLng; sw: LatLng }
  | undefined;

function areaOf(p: ParamReader, deps: PlacesDeps): Area {
  const near = p.text('near');
  const ne = p.text('ne');
  const sw = p.text('sw');
  const ll = p.text('ll');
  const radiusText = p.text('radius');
  if ((ne === undefined) !== (sw === undefined)) {
    const missing = ne === undefined ? 'ne' : 'sw';
    throw invalidParameter(
      missing,
      `${missing} is required with ${missing === 'ne' ? 'sw' : 'ne'}: the rectangle needs both corners`,
    );
  }
  if (near !== undefined && ll !== undefined)
    throw conflictingParameters('ll', 'near', 'give a point or a place name');
  if (near !== undefined && ne !== undefined)
    throw conflictingParameters('near', 'ne', 'give a place name or a rectangle');
  if (ll !== undefined && ne !== undefined)
    throw conflictingParameters('ll', 'ne', 'give a point and radius, or a rectangle');
  const radius = radiusText === undefined ? undefined : parseInteger('radius', radiusText, 0, 100_000);
  if (radius !== undefined && ne !== undefined) {
    throw conflictingParameters(
      'ne',
      'radius',
      'radius applies around ll or near; a rectangle has its own bounds',
    );
  }
  if (ne !== undefined && sw !== undefined) {
    const area = { kind: 'rectangle' as const, ne: parseLatLng('ne', ne), sw: parseLatLng('sw', sw) };
    if (area.sw.latitude > area.ne.latitude) {
      throw invalidParameter('sw', 'the south-west corner must not be north of the north-east corner');
    }
    return area;
  }
  if (ll !== undefined)
    return { kind: 'circle', center: parseLatLng('ll', ll), radius: radius ?? DEFAULT_RADIUS };
  if (near !== undefined) {
    if (near.trim() === '' || near.length > 200)
      throw invalidParameter('near', 'give a place name such as "Chicago, IL"');
    const city = resolveNear(deps.gazetteer(), near.trim());
    return {
      kind: 'circle',
      center: { latitude: city.latitude, longitude: city.longitude },
      radius: radius ?? cityRadius(city),
    };
  }
  if (radius !== undefined) throw invalidParameter('radius', 'radius needs ll or near');
  return undefined;
}

/** The latitude band and longitude range around a circle (all longitudes near a pole). */
function boxOf(area: NonNullable<Area>) {
  if (area.kind === 'rectangle') {
    return {
      south: area.sw.latitude,
      north: area.ne.latitude,
      west: area.sw.longitude,
      east: area.ne.longitude,
    };
  }
  const dLat = area.radius / 111_000 + 0.001;
  const south = Math.max(-90, area.center.latitude - dLat);
  const north = Math.min(90, area.center.latitude + dLat);
  const cos = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const dLon = cos < 1e-6 ? 360 : dLat / cos;
  if (dLon >= 180) return { south, north, west: -180, east: 180 };
  const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  return { south, north, west: wrap(area.center.longitude - dLon), east: wrap(area.center.longitude + dLon) };
}

/**
 * `GET /places/suggest/review`: places with pending edits for the caller to vote on (their own edits, edits
 * they have voted on and edits their vote would not count on are left out), in an area given by `near`, `ne`+`sw` or `ll`(+`radius`), or
 * anywhere when none is given; places with the most pending edits first, then the longest waiting.
 * `limit` 1–50 places, default 10.
 */
export async function reviewQueue(
  deps: PlacesDeps,
  auth: AuthContext,
  params: ApiParams,
): Promise<{ venues: ReviewVenue[] }> {
  const p = new ParamReader(params, ['near', 'ne', 'sw', 'll', 'radius', 'limit']);
  const limitText = p.text('limit');
  const limit = limitText === undefined ? 10 : parseInteger('limit', limitText, 1, 50);
  const area = areaOf(p, deps);
  const viewer = contributorOf(auth);
  let edits = await pendingEditsIn(deps.db, area && boxOf(area), attributionOf(auth), SCAN);
  if (area?.kind === 'circle') {
    edits = edits.filter(
      (e) => greatCircle(area.center.latitude, area.center.longitude, e.latitude, e.longitude) <= area.radius,
    );
  }
  const groups = new Map<string, EditRow[]>();
  for (const e of edits) {
    const key = e.fsq_place_id ?? `new:${e.id}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const chosen = [...groups.values()]
    .sort((a, b) => b.length - a.length || a[0]!.created_at.getTime() - b[0]!.created_at.getTime())
    .slice(0, limit);
  const places = await findPlaces(
    deps.db,
    chosen.flatMap((g) => (g[0]!.fsq_place_id ? [g[0]!.fsq_place_id] : [])),
  );
  const views = new Map(
    (await viewEdits(deps.db, deps, chosen.flat(), viewer)).map((v, i) => [chosen.flat()[i]!.id, v]),
  );
  const reference = deps.reference();
  const now = deps.clock.now();
  return {
    venues: chosen.map((group) => {
      const first = group[0]!;
      const place = first.fsq_place_id ? places.get(first.fsq_place_id) : undefined;
      const proposed = (field: string) => first.changes.find((c) => c.field === field)?.to;
      const location = place
        ? ((renderPlace(place, { reference, fields: new Set(['location']), now, publicUrl: deps.publicUrl })
            .location as Record<string, unknown>) ?? {})
        : Object.fromEntries(
            ['address', 'locality', 'region', 'postcode', 'country']
              .map((f) => [f, proposed(f)] as const)
              .filter(([, v]) => typeof v === 'string'),
          );
      return {
        fsq_place_id: first.fsq_place_id,
        venue_name: place?.name ?? String(proposed('name') ?? first.fsq_place_id ?? ''),
        location,
        latitude: place?.latitude ?? first.latitude,
        longitude: place?.longitude ?? first.longitude,
        woe_types: [...new Set(group.map((e) => e.suggested_edit_type))],
        woe_count: group.length,
        woes: group.map((e) => views.get(e.id)!),
      };
    }),
  };
}
