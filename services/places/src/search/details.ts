import type { PlacesDeps } from '../deps.ts';
import { placeNotFound } from '../errors.ts';
import { mediaForFields } from '../media/endpoints.ts';
import { PLACE_ID } from '../reference/ids.ts';
import type { DetailsQueryValues } from '../routes/schemas.ts';
import { findPlace } from '../store/places-read.ts';
import { parseFields } from './fields.ts';
import { renderPlace } from './render.ts';

export async function placeDetails(
  deps: PlacesDeps,
  id: string,
  query: DetailsQueryValues,
): Promise<Record<string, unknown>> {
  const fields = parseFields(query.fields);
  const row = PLACE_ID.test(id) ? await findPlace(deps.db, id) : undefined;
  if (!row) throw placeNotFound(id);
  const media = await mediaForFields(deps.db, [row.fsq_place_id], fields);
  return renderPlace(row, {
    reference: deps.reference(),
    fields,
    now: deps.clock.now(),
    publicUrl: deps.publicUrl,
    ...(media ? { media } : {}),
    ...(query.tel_format ? { telFormat: query.tel_format } : {}),
  });
}
