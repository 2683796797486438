import type { PlacesDeps } from '../deps.ts';
import { placeNotFound } from '../errors.ts';
import { PLACE_ID } from '../reference/ids.ts';
import { findPlace } from '../store/places-read.ts';
import { parseFields } from './fields.ts';
import { type RawQuery, single } from './params.ts';
import { renderPlace } from './render.ts';

export async function placeDetails(
  deps: PlacesDeps,
  id: string,
  raw: RawQuery,
): Promise<Record<string, unknown>> {
  const fields = parseFields(single(raw, 'fields'));
  const row = PLACE_ID.test(id) ? await findPlace(deps.db, id) : undefined;
  if (!row) throw placeNotFound(id);
  const telFormat = single(raw, 'tel_format');
  return renderPlace(row, {
    reference: deps.reference(),
    fields,
    now: deps.clock.now(),
    ...(telFormat === 'NATIONAL' || telFormat === 'E164' ? { telFormat } : {}),
  });
}
